// The validation against published measurements (docs/validation.md): every row of
// ../shared/reference/measured_calibration.csv and measured_calibration_2026-12-02.csv (one list
// of measurements) is a case with the published value the row gives; no case may fall below the
// status it holds; the counts hold what the model reaches (>= 18 of 20 within 25 %, >= 14 within
// 10 %); the report in docs/ is what dcwalk prints now (scripts/validate regenerates it).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/validation.h"
#include "tests/common/paths.h"
#include "tests/sim/shipped_catalog.h"

namespace {

const std::filesystem::path& casesDir() {
  static const std::filesystem::path dir =
      testpaths::sourceDir() / "assets" / "scenarios" / "validation";
  return dir;
}

std::vector<sim::CaseResult> results() {
  auto cases = sim::loadValidationCases(casesDir() / "cases.json");
  EXPECT_TRUE(cases.ok()) << cases.error();
  if (!cases) return {};
  auto r = sim::runValidation(*cases, simtest::shipped());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : std::vector<sim::CaseResult>{};
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One CSV record's fields (RFC 4180 quoting: "a, b" is one field, "" inside quotes is one ").
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

// The published measurements: id -> published_value (in SI units), from both files of
// ../shared/reference.
std::map<std::string, double> measurements() {
  std::map<std::string, double> rows;
  for (const char* name : {"measured_calibration.csv", "measured_calibration_2026-12-02.csv"}) {
    const auto csv = testpaths::sharedDir() / "reference" / name;
    std::ifstream in(csv);
    EXPECT_TRUE(in) << "cannot read " << csv << " (set DCWALK_SHARED)";
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(csvFields(line).at(3), "published_value") << csv;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const std::vector<std::string> f = csvFields(line);
      EXPECT_EQ(f.size(), 7u) << csv << ": " << line;
      // The cases compare in SI units; the rows give T01 in TFLOP/s.
      const double scale = f.at(4).rfind("TFLOP/s", 0) == 0 ? 1e12 : 1.0;
      EXPECT_TRUE(rows.emplace(f.at(0), scale * std::stod(f.at(3))).second)
          << f[0] << " appears twice";
    }
  }
  return rows;
}

}  // namespace

TEST(Validation, CsvFieldsHonourQuotes) {
  const std::vector<std::string> f = csvFields(R"(C10,"a, b",x,810.41e9,"say ""hi""")");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[1], "a, b");
  EXPECT_EQ(f[3], "810.41e9");
  EXPECT_EQ(f[4], "say \"hi\"");
}

TEST(Validation, EveryMeasurementIsACaseWithItsPublishedValue) {
  const std::map<std::string, double> rows = measurements();
  ASSERT_EQ(rows.size(), 20u);
  std::map<std::string, double> cases;
  for (const sim::CaseResult& r : results()) cases.emplace(r.spec.id, r.spec.published);
  ASSERT_EQ(cases.size(), rows.size());
  for (const auto& [id, published] : rows) {
    ASSERT_TRUE(cases.count(id)) << id << " has no case";
    EXPECT_NEAR(cases[id], published, 1e-12 * published) << id;
  }
}

TEST(Validation, NoCaseFallsBelowItsStatusAndTheCountsHold) {
  int within10 = 0, within25 = 0;
  const auto all = results();
  for (const sim::CaseResult& r : all) {
    EXPECT_TRUE(sim::keeps(r.status, r.spec.baseline))
        << r.spec.id << " is " << sim::statusName(r.status) << " (ratio " << r.ratio << "), it was "
        << sim::statusName(r.spec.baseline);
    within10 += r.status == sim::CaseStatus::Within10;
    within25 += r.status != sim::CaseStatus::Outside;
  }
  EXPECT_EQ(all.size(), 20u);
  EXPECT_GE(within25, 18);
  EXPECT_GE(within10, 14);
}

TEST(Validation, TheReportInDocsIsCurrent) {
  const std::string report =
      sim::validationReport(results(), readText(casesDir() / "validation.md.in"));
  EXPECT_EQ(readText(testpaths::sourceDir() / "docs" / "validation.md"), report)
      << "docs/validation.md is stale: run scripts/validate";
}

TEST(Validation, BadCasesFilesNameThePlace) {
  const testpaths::TempDir folder("validation-bad");
  const auto path = folder.path / "cases.json";
  std::ofstream(path) << R"({"cases": [{"id": "X", "quantity": "q", "scenario": "s.json",
    "key": "compute.ttft_s", "published": -1, "unit": "s", "kind": "ratio",
    "role": "prediction", "baseline": "within_10", "source": "s", "note": ""}]})";
  auto cases = sim::loadValidationCases(path);
  ASSERT_FALSE(cases.ok());
  EXPECT_NE(cases.error().find("published must be > 0"), std::string::npos) << cases.error();
  std::filesystem::remove(path);
}
