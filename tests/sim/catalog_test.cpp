// The shipped catalog: every figure cited (source + basis), every entry loads as a typed spec,
// and malformed catalog text fails with file:line and a JSON pointer.
#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/specs.h"
#include "tests/common/shipped_catalog.h"

using namespace sim;

TEST(Catalog, EveryShippedFigureHasUnitSourceAndBasis) {
  const Catalog& catalog = testcatalog::shipped();
  ASSERT_GT(catalog.quantities().size(), 200u);
  for (const auto& [path, q] : catalog.quantities()) {
    EXPECT_FALSE(q.unit.empty()) << path;
    EXPECT_FALSE(q.source.empty()) << path;
    EXPECT_FALSE(q.where.empty()) << path;
  }
}

TEST(Catalog, EveryEntryLoadsAsATypedSpec) {
  const Catalog& catalog = testcatalog::shipped();
  struct Section {
    const char* name;
    std::function<std::string(const std::string&)> load;
  };
  const std::vector<Section> sections = {
      {"gpus", [&](const std::string& id) { return loadGpu(catalog, id).error(); }},
      {"systems", [&](const std::string& id) { return loadSystem(catalog, id).error(); }},
      {"interconnects",
       [&](const std::string& id) { return loadInterconnect(catalog, id).error(); }},
      {"switches", [&](const std::string& id) { return loadSwitch(catalog, id).error(); }},
      {"models", [&](const std::string& id) { return loadModel(catalog, id).error(); }},
      {"facility", [&](const std::string& id) { return loadFacility(catalog, id).error(); }},
      {"costs", [&](const std::string& id) { return loadCost(catalog, id).error(); }},
  };
  for (const Section& s : sections) {
    const auto ids = catalog.children(s.name);
    EXPECT_FALSE(ids.empty()) << s.name;
    for (const std::string& id : ids) EXPECT_EQ(s.load(id), "") << s.name << "." << id;
  }
  EXPECT_TRUE(loadRules(catalog).ok()) << loadRules(catalog).error();
  // Every system names a GPU and a NIC that exist.
  for (const std::string& id : catalog.children("systems")) {
    auto system = loadSystem(catalog, id);
    ASSERT_TRUE(system.ok());
    EXPECT_TRUE(loadGpu(catalog, system->gpuId).ok()) << id;
    EXPECT_TRUE(loadInterconnect(catalog, system->scaleOutNicId).ok()) << id;
  }
}

TEST(Catalog, IssueCoverageOfHardwareAndModels) {
  const Catalog& catalog = testcatalog::shipped();
  for (const char* id : {"h100_sxm", "h200", "b200", "gb200", "mi300x", "tpu_v5e", "tpu_v5p"}) {
    EXPECT_TRUE(loadGpu(catalog, id).ok()) << id;
  }
  EXPECT_NE(catalog.find("cpus.xeon_8480.amx_bf16_ops_per_cycle_per_core"), nullptr);
  for (const char* id : {"dgx_h100", "gb200_nvl72"}) EXPECT_TRUE(loadSystem(catalog, id).ok());
  for (const char* id :
       {"nvlink4", "nvlink5", "infiniband_ndr", "infiniband_xdr", "ethernet_400g_rocev2",
        "ethernet_800g_rocev2", "connectx7", "connectx8"}) {
    EXPECT_TRUE(loadInterconnect(catalog, id).ok()) << id;
  }
  EXPECT_TRUE(loadSwitch(catalog, "nvswitch_gen3").ok());
  bool anyMoe = false;
  for (const std::string& id : catalog.children("models")) {
    auto m = loadModel(catalog, id);
    ASSERT_TRUE(m.ok()) << m.error();
    anyMoe = anyMoe || isMoe(*m);
  }
  EXPECT_TRUE(anyMoe);
}

TEST(Catalog, SparseHeadlineIsNotStoredAsDense) {
  // Caution of the reference: dense = sparse / 2. H100 FP8 dense is 1,978.9 TF, not 3,958.
  const Catalog& catalog = testcatalog::shipped();
  auto h100 = loadGpu(catalog, "h100_sxm");
  ASSERT_TRUE(h100.ok());
  auto rules = loadRules(catalog);
  ASSERT_TRUE(rules.ok()) << rules.error();
  EXPECT_LT(h100->denseFp8_flops, 2.0e15);
  // The vendor's "3,958 TFLOPS*" sparse FP8 figure is the dense one times the sparsity ratio.
  EXPECT_NEAR(h100->denseFp8_flops * rules->sparseToDenseRatio, 3957.8e12, 0.1e12);
}

TEST(Catalog, MissingSourceFailsWithFileAndLine) {
  auto c = Catalog::loadTexts({{"bad.json",
                                "{\n  \"gpus\": {\n    \"x\": {\n"
                                "      \"tdp_W\": {\"value\": 700, \"unit\": \"W\", "
                                "\"basis\": \"vendor\"}\n    }\n  }\n}\n"}});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("bad.json:4"), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("/gpus/x/tdp_W"), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("source"), std::string::npos) << c.error();
}

TEST(Catalog, BadBasisSyntaxAndDuplicatesFailWithPlaces) {
  auto basis = Catalog::loadTexts(
      {{"b.json",
        "{\"a\": {\n\"f\": {\"value\": 1, \"unit\": \"W\", \"source\": \"s s s s\", "
        "\"basis\": \"guess\"}}}"}});
  ASSERT_FALSE(basis.ok());
  EXPECT_NE(basis.error().find("b.json:2"), std::string::npos) << basis.error();
  EXPECT_NE(basis.error().find("guess"), std::string::npos);

  auto syntax = Catalog::loadTexts({{"s.json", "{\n\"a\": {\n\"f\": {\"value\": 1,,}}}"}});
  ASSERT_FALSE(syntax.ok());
  EXPECT_NE(syntax.error().find("s.json:3"), std::string::npos) << syntax.error();

  const std::string figure =
      R"({"value": 1, "unit": "W", "source": "somewhere", "basis": "vendor"})";
  auto dup = Catalog::loadTexts({{"one.json", "{\"gpus\": {\"a\": {\"f\": " + figure + "}}}"},
                                 {"two.json", "{\"gpus\": {\"b\": {\"f\": " + figure + "}}}"}});
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().find("two.json:1"), std::string::npos) << dup.error();
}

TEST(Catalog, SpecValidationNamesTheFigure) {
  const std::string src = R"("source": "test text", "basis": "estimate")";
  // 0 is inside the unit's domain (an optional figure may be absent) but a GPU needs its HBM.
  auto c = Catalog::loadTexts({{"gpus.json",
                                "{\"gpus\": {\"g\": {\n\"name\": \"G\",\n"
                                "\"hbm_capacity_bytes\": {\"value\": 0, \"unit\": \"B\", " +
                                    src + "}\n}}}"}});
  ASSERT_TRUE(c.ok()) << c.error();
  auto g = loadGpu(*c, "g");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().find("gpus.json:3"), std::string::npos) << g.error();
  EXPECT_NE(g.error().find("hbm_capacity_bytes"), std::string::npos) << g.error();

  auto unknown = loadGpu(*c, "nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("known: g"), std::string::npos) << unknown.error();
}
