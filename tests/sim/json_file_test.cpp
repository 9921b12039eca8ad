// sim::parseJsonText on hostile text: every refusal names the file and a line:column, and no
// exception of the JSON parser escapes (fuzzing found one: a number beyond double range).
#include <gtest/gtest.h>

#include "sim/json_file.h"

TEST(JsonFile, NumberBeyondDoubleRangeIsRefusedWithItsPlace) {
  auto r = sim::parseJsonText("{\n  \"hidden_size\": 1e400\n}", "config.json");
  ASSERT_FALSE(r.ok());
  // The token starts on line 2, column 18 (counted by hand from the text above).
  EXPECT_EQ(r.error().rfind("config.json:2:18: ", 0), 0u) << r.error();
  EXPECT_NE(r.error().find("1e400"), std::string::npos) << r.error();
}

TEST(JsonFile, SyntaxErrorsNameLineAndColumn) {
  auto r = sim::parseJsonText("{\n  \"a\": 1,\n  \"b\": ]\n}", "bad.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("bad.json:3:", 0), 0u) << r.error();
}

TEST(JsonFile, WhereFollowsArrayIndices) {
  auto r =
      sim::parseJsonText("{\"list\": [\n  {\"x\": 1},\n  {\"x\": 2},\n  {\"x\": 3}\n]}", "f.json");
  ASSERT_TRUE(r.ok()) << r.error();
  // The third element's "x" is on line 4.
  EXPECT_EQ(r->where(nlohmann::json::json_pointer("/list/2/x")), "f.json:4 (/list/2/x)");
}

TEST(JsonFile, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep(sim::MAX_JSON_DEPTH + 1, '[');
  auto r = sim::parseJsonText(deep, "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("deep.json"), std::string::npos);
}
