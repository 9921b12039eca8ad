#include "sim/validation.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/evaluate.h"
#include "sim/json_file.h"
#include "sim/scenario.h"

namespace sim {
namespace {

using nlohmann::json;

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

CaseStatus grade(double ratio) {
  if (std::abs(ratio - 1.0) <= 0.10) return CaseStatus::Within10;
  if (std::abs(ratio - 1.0) <= 0.25) return CaseStatus::Within25;
  return CaseStatus::Outside;
}

std::string commandOf(const ValidationCase& c) {
  std::string command =
      "dcwalk sim --scenario assets/scenarios/validation/" + c.scenario.filename().string();
  for (const std::string& o : c.overrides) command += " --set " + o;
  return command + " --json  # " + c.key;
}

// Reads one case; "" on success, else the message.
std::string readCase(const JsonFile& file, const json& node, size_t index, ValidationCase& c) {
  const json::json_pointer at = json::json_pointer("/cases") / index;
  auto text = [&](const char* key, std::string& out) -> std::string {
    if (!node.contains(key) || !node[key].is_string()) {
      return file.where(at) + ": cases[" + std::to_string(index) + "]." + key + " must be a string";
    }
    out = node[key].get<std::string>();
    return "";
  };
  std::string scenario, kind, baseline;
  for (const auto& [key, out] : {std::pair<const char*, std::string*>{"id", &c.id},
                                 {"quantity", &c.quantity},
                                 {"scenario", &scenario},
                                 {"key", &c.key},
                                 {"unit", &c.unit},
                                 {"kind", &kind},
                                 {"role", &c.role},
                                 {"baseline", &baseline},
                                 {"source", &c.source},
                                 {"note", &c.note}}) {
    if (std::string e = text(key, *out); !e.empty()) return e;
  }
  if (!node.contains("published") || !node["published"].is_number()) {
    return file.where(at) + ": cases[" + std::to_string(index) + "].published must be a number";
  }
  c.published = node["published"].get<double>();
  if (!(c.published > 0)) return file.where(at) + ": published must be > 0";
  if (node.contains("set")) {
    if (!node["set"].is_array()) return file.where(at) + ": set must be a list of path=value";
    for (const json& s : node["set"]) {
      if (!s.is_string()) return file.where(at) + ": set must be a list of path=value";
      c.overrides.push_back(s.get<std::string>());
    }
  }
  c.scenario = file.path.parent_path() / scenario;
  if (kind == "ratio") {
    c.kind = CaseKind::Ratio;
  } else if (kind == "yes_no") {
    c.kind = CaseKind::YesNo;
  } else if (kind == "upper_bound") {
    c.kind = CaseKind::UpperBound;
  } else {
    return file.where(at) + ": kind must be ratio, yes_no or upper_bound";
  }
  if (baseline == "within_10") {
    c.baseline = CaseStatus::Within10;
  } else if (baseline == "within_25") {
    c.baseline = CaseStatus::Within25;
  } else if (baseline == "outside") {
    c.baseline = CaseStatus::Outside;
  } else {
    return file.where(at) + ": baseline must be within_10, within_25 or outside";
  }
  return "";
}

}  // namespace

std::string statusName(CaseStatus status) {
  switch (status) {
    case CaseStatus::Within10:
      return "within 10 %";
    case CaseStatus::Within25:
      return "within 25 %";
    case CaseStatus::Outside:
      return "outside";
  }
  return "";
}

bool keeps(CaseStatus status, CaseStatus baseline) {
  return static_cast<int>(status) <= static_cast<int>(baseline);
}

Result<std::vector<ValidationCase>> loadValidationCases(const std::filesystem::path& path) {
  using R = Result<std::vector<ValidationCase>>;
  auto file = readJsonFile(path);
  if (!file) return R::failure(file.error());
  if (!file->root.is_object() || !file->root.contains("cases") || !file->root["cases"].is_array()) {
    return R::failure(path.string() + ":1: expected {\"cases\": [...]}");
  }
  std::vector<ValidationCase> cases;
  const json& list = file->root["cases"];
  for (size_t i = 0; i < list.size(); ++i) {
    ValidationCase c;
    if (std::string e = readCase(*file, list[i], i, c); !e.empty()) return R::failure(e);
    cases.push_back(std::move(c));
  }
  return cases;
}

Result<std::vector<CaseResult>> runValidation(const std::vector<ValidationCase>& cases,
                                              const Catalog& catalog) {
  using R = Result<std::vector<CaseResult>>;
  std::vector<CaseResult> results;
  for (const ValidationCase& c : cases) {
    auto scenario = loadScenarioFile(c.scenario);
    if (!scenario) return R::failure(c.id + ": " + scenario.error());
    for (const std::string& o : c.overrides) {
      if (auto applied = applyOverride(*scenario, o); !applied) {
        return R::failure(c.id + ": " + applied.error());
      }
    }
    auto evaluation = evaluateScenario(*scenario, catalog);
    if (!evaluation) return R::failure(c.id + ": " + evaluation.error());
    const Output* out = evaluation->find(c.key);
    if (!out) return R::failure(c.id + ": the evaluation has no " + c.key);
    CaseResult r{c};
    r.command = commandOf(c);
    if (const bool* b = std::get_if<bool>(&out->value)) {
      r.value = *b ? 1.0 : 0.0;
    } else if (const double* d = std::get_if<double>(&out->value)) {
      r.value = *d;
    } else {
      return R::failure(c.id + ": " + c.key + " is not a number or a yes/no");
    }
    r.ratio = r.value / c.published;
    switch (c.kind) {
      case CaseKind::Ratio:
        r.status = grade(r.ratio);
        break;
      case CaseKind::YesNo:
        r.status = r.value == c.published ? CaseStatus::Within10 : CaseStatus::Outside;
        break;
      case CaseKind::UpperBound:  // must not exceed; how close below it still grades
        r.status = r.ratio > 1.0 ? CaseStatus::Outside : grade(r.ratio);
        break;
    }
    results.push_back(std::move(r));
  }
  return results;
}

std::string validationReport(const std::vector<CaseResult>& results,
                             const std::string& templateText) {
  std::ostringstream table, outside;
  table << "| case | quantity | dcwalk | published | ratio | status | role |\n"
        << "|---|---|---|---|---|---|---|\n";
  int within10 = 0, within25 = 0;
  for (const CaseResult& r : results) {
    const bool yesNo = r.spec.kind == CaseKind::YesNo;
    const std::string value = yesNo ? (r.value > 0.5 ? "yes" : "no") : number(r.value);
    const std::string published =
        yesNo ? (r.spec.published > 0.5 ? "yes" : "no")
              : (r.spec.kind == CaseKind::UpperBound ? "<= " : "") + number(r.spec.published);
    const std::string unit = r.spec.unit.empty() ? "" : " " + r.spec.unit;
    const std::string status =
        yesNo ? (r.status == CaseStatus::Outside ? "disagrees" : "agrees") : statusName(r.status);
    table << "| " << r.spec.id << " | " << r.spec.quantity << " | " << value << unit << " | "
          << published << unit << " | " << (yesNo ? "-" : number(r.ratio)) << " | " << status
          << " | " << r.spec.role << " |\n";
    if (r.status == CaseStatus::Within10) ++within10;
    if (r.status != CaseStatus::Outside) ++within25;
    if (r.status != CaseStatus::Within10) {
      outside << "- **" << r.spec.id << "** (" << statusName(r.status) << ", ratio "
              << number(r.ratio) << "): " << r.spec.note << "\n";
    }
  }
  table << "\nThe command behind each case (the key compared follows the `#`):\n\n```\n";
  for (const CaseResult& r : results) table << r.spec.id << ": " << r.command << "\n";
  table << "```\n";
  std::ostringstream counts;
  counts << within25 << " of " << results.size() << " cases within ±25 %, " << within10 << " of "
         << results.size() << " within ±10 %.";
  std::string report = templateText;
  auto fill = [&](const std::string& mark, const std::string& text) {
    if (size_t at = report.find(mark); at != std::string::npos)
      report.replace(at, mark.size(), text);
  };
  fill("{{TABLE}}", table.str());
  fill("{{COUNTS}}", counts.str());
  fill("{{OUTSIDE}}", outside.str());
  return report;
}

}  // namespace sim
