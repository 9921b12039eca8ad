// Validation in the open: every published measurement of ../shared/reference/
// measured_calibration.csv expressed as a scenario (assets/scenarios/validation/), evaluated, and
// compared with what dcwalk computes. The cases file names, per case, the scenario and overrides,
// the output key, the published value and how to compare (a ratio, a yes/no, an upper bound),
// whether the case is a prediction or feeds a calibration, and the status it must keep. The
// report (docs/validation.md, written by scripts/validate) fills a template with the results.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/catalog.h"
#include "sim/result.h"

namespace sim {

enum class CaseKind { Ratio, YesNo, UpperBound };
enum class CaseStatus { Within10, Within25, Outside };

struct ValidationCase {
  std::string id;
  std::string quantity;
  std::filesystem::path scenario;  // resolved against the cases file's folder
  std::vector<std::string> overrides;
  std::string key;  // "section.key" of the evaluation
  double published = 0;
  std::string unit;
  CaseKind kind = CaseKind::Ratio;
  std::string role;  // "prediction", "near-calibration", "calibration input"
  CaseStatus baseline = CaseStatus::Outside;  // the status the case must keep (or beat)
  std::string source;
  std::string note;
};

struct CaseResult {
  ValidationCase spec;
  double value = 0;  // dcwalk's number (1 / 0 for a yes/no)
  double ratio = 0;  // value / published
  CaseStatus status = CaseStatus::Outside;
  std::string command;  // the `dcwalk sim` command that expresses the case
};

/// Reads a cases file; errors name the file, line and field.
Result<std::vector<ValidationCase>> loadValidationCases(const std::filesystem::path& file);
/// Evaluates every case; fails naming the case when its scenario does not evaluate.
Result<std::vector<CaseResult>> runValidation(const std::vector<ValidationCase>& cases,
                                              const Catalog& catalog);
/// "within 10 %", "within 25 %", "outside".
std::string statusName(CaseStatus status);
/// Whether `status` is as good as `baseline` or better.
bool keeps(CaseStatus status, CaseStatus baseline);
/// The report: `templateText` with {{TABLE}}, {{COUNTS}} and {{OUTSIDE}} filled in.
std::string validationReport(const std::vector<CaseResult>& results,
                             const std::string& templateText);

}  // namespace sim
