// The property behind issue 19's "every input bounded, every output possible": every numeric
// field of a scenario, fed its domain's edges and beyond (0, -1, tiny, huge, NaN, infinity, 2^31,
// 2^63 ...), is either refused naming the field, or evaluates to outputs that are all finite and
// physically possible (times, bytes, energies, rates >= 0; shares in [0, 1]; Celsius above
// absolute zero). The fields come from the parser's own table (sim::scenarioFields), so a new
// field is covered the day it is added; the evaluator is called in-process.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/domain.h"
#include "sim/engine/request.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/common/paths.h"
#include "tests/sim/sanitized.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;

namespace {

using simtest::shipped;

// Text --set takes for `value`: integers in full (2^63 as 9223372036854775808), others exactly.
std::string setText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  if (value == std::floor(value) && std::abs(value) < 1e19) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.17g", value);
  }
  return text;
}

// The values every numeric field is fed: its domain's edges, just past them, and the hostile
// values the issue lists.
std::vector<double> edges(const Domain& d) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0,
                           -1,
                           0.5,
                           5e-324,
                           1e-300,
                           1e308,
                           2147483648.0,  // 2^31
                           2147483647.0,
                           9223372036854775808.0,  // 2^63
                           -9223372036854775808.0,
                           std::nan(""),
                           inf,
                           -inf,
                           d.min,
                           d.max,
                           std::nextafter(d.min, -inf),
                           std::nextafter(d.max, inf),
                           d.min - 1,
                           d.max + 1,
                           d.max * 2};
  // Inside: the geometric middle (or the plain one when the range starts at 0).
  const double middle = d.min > 0 ? std::sqrt(d.min * d.max) : (d.min + d.max) / 2;
  v.push_back(d.integer ? std::round(middle) : middle);
  return v;
}

// What the test itself holds every output to, written out here rather than taken from
// sim::outputError: finite; Celsius above absolute zero, shares in [0, 1], the rest >= 0.
std::string impossible(const Output& o) {
  const double* v = std::get_if<double>(&o.value);
  if (!v) return "";
  const std::string what = o.section + "." + o.key + " = " + setText(*v) + " " + o.unit;
  if (!std::isfinite(*v)) return what + ": not finite";
  if (o.unit == "C") return *v >= -273.15 ? "" : what + ": below absolute zero";
  if (*v < 0) return what + ": negative";
  if (o.unit == "share" && *v > 1) return what + ": a share above 1";
  return "";
}

// True when `message` names one of the scenario's fields (a path, or its section for the
// layout's product "workload: tp x cp x pp x dp ... cluster.gpus").
bool namesAField(const std::string& message) {
  for (const std::string& path : scenarioFieldPaths()) {
    if (message.find(path) != std::string::npos) return true;
  }
  return false;
}

struct Tally {
  size_t cases = 0, refusedSet = 0, refusedEvaluation = 0, evaluated = 0;
  std::set<std::string> reached;  // fields one of whose values was evaluated
};

// Applies `assignments` to `base` and checks the property; failures name `what`.
void checkCase(const ScenarioDesc& base, const std::vector<std::string>& assignments,
               const std::string& what, Tally& tally) {
  ++tally.cases;
  ScenarioDesc s = base;
  for (const std::string& a : assignments) {
    auto applied = applyOverride(s, a);
    if (!applied) {
      const std::string path = a.substr(0, a.find('='));
      EXPECT_EQ(applied.error().rfind("--set " + path + ": ", 0), 0u)
          << what << ": " << applied.error();
      ++tally.refusedSet;
      return;
    }
  }
  auto r = evaluateScenario(s, shipped());
  if (!r) {
    EXPECT_FALSE(r.isDefect()) << what << ": " << r.error();
    EXPECT_TRUE(namesAField(r.error())) << what << ": the refusal names no field: " << r.error();
    ++tally.refusedEvaluation;
    return;
  }
  ++tally.evaluated;
  for (const std::string& a : assignments) tally.reached.insert(a.substr(0, a.find('=')));
  for (const Output& o : r->outputs) {
    if (std::string why = impossible(o); !why.empty()) {
      ADD_FAILURE() << what << ": " << why;
      return;
    }
    if (std::holds_alternative<double>(o.value)) {
      EXPECT_NE(outputUnitDomain(o.unit), nullptr) << what << ": " << o.key << " unit " << o.unit;
    }
  }
}

std::vector<ScenarioField> numericFields() {
  std::vector<ScenarioField> out;
  for (const ScenarioField& f : scenarioFields()) {
    if (f.kind != FieldKind::Text) out.push_back(f);
  }
  return out;
}

// The scenarios the edges are applied to: one of each kind the model prices differently.
std::vector<ScenarioDesc> bases() {
  std::vector<ScenarioDesc> out;
  for (const char* name :
       {"llama405b-training-16k-h100", "llama70b-inference-h100", "mixtral-inference-mi300x"}) {
    auto s = loadScenario(name);
    EXPECT_TRUE(s.ok()) << s.error();
    if (s) out.push_back(*s);
  }
  // A model by its dimensions, batched statically, and a training run on an inline model.
  for (const char* file :
       {"i09-llama2-70b-fp8-static-64.json", "p01-llama2-13b-training-8xh100.json"}) {
    auto s = loadScenarioFile(testpaths::sourceDir() / "assets/scenarios/validation" / file);
    EXPECT_TRUE(s.ok()) << s.error();
    if (s) out.push_back(*s);
  }
  return out;
}

}  // namespace

// Every numeric field: a domain with finite bounds, integers that fit the int they are stored
// in, and numbers nobody needs beyond 1e16 of their unit.
TEST(DomainProperty, EveryNumericFieldHasADeclaredDomain) {
  const std::vector<ScenarioField> numeric = numericFields();
  ASSERT_GE(numeric.size(), 50u);
  for (const ScenarioField& f : numeric) {
    SCOPED_TRACE(f.path);
    EXPECT_TRUE(std::isfinite(f.domain.min) && std::isfinite(f.domain.max));
    EXPECT_LE(f.domain.min, f.domain.max);
    EXPECT_LE(f.domain.max, 1e19);
    if (f.kind == FieldKind::Integer) {
      EXPECT_TRUE(f.domain.integer) << "an int field takes whole numbers only";
      EXPECT_LE(f.domain.max, double(std::numeric_limits<int>::max()));
      EXPECT_GE(f.domain.min, double(std::numeric_limits<int>::min()));
    }
    // A zero that means "the default" must not also be an ordinary value of the range.
    if (f.domain.zeroIsDefault) {
      EXPECT_GT(f.domain.min, 0);
    }
  }
}

// The edges of every numeric field, one at a time, on every base scenario; the same values
// written in a scenario file (where JSON can spell them) are refused or accepted alike.
TEST(DomainProperty, EveryFieldAtItsEdgesIsRefusedOrEvaluatesToPossibleOutputs) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ScenarioDesc> all = bases();
  ASSERT_EQ(all.size(), 5u);
  Tally tally;
  for (const ScenarioField& f : numericFields()) {
    std::set<std::string> accepted;  // values --set took, to compare with the file path
    for (const double value : edges(f.domain)) {
      const std::string assignment = f.path + "=" + setText(value);
      // Every value on every base, under a sanitizer too (a few seconds there): sampling the
      // bases let a field whose values evaluate on one base only (workload.pp on the training
      // bases) go unreached.
      for (const ScenarioDesc& base : all)
        checkCase(base, {assignment}, base.name + " --set " + assignment, tally);
      ScenarioDesc probe;
      if (applyOverride(probe, assignment)) accepted.insert(setText(value));
      if (!std::isfinite(value)) continue;
      const size_t dot = f.path.find('.');
      const std::string json = "{\"" + f.path.substr(0, dot) + "\": {\"" + f.path.substr(dot + 1) +
                               "\": " + setText(value) + "}}";
      auto file = parseJsonText(json, "edge.json");
      ASSERT_TRUE(file.ok()) << file.error();
      auto parsed = parseScenario(*file);
      EXPECT_EQ(parsed.ok(), accepted.count(setText(value)) == 1)
          << json << ": the file and --set disagree (" << (parsed ? "" : parsed.error()) << ")";
      if (!parsed) {
        EXPECT_NE(parsed.error().find("edge.json:1"), std::string::npos) << parsed.error();
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[ edges ] %zu cases: %zu refused by --set, %zu by the evaluation, %zu evaluated "
      "(%.1f s)\n",
      tally.cases, tally.refusedSet, tally.refusedEvaluation, tally.evaluated, seconds);
  for (const ScenarioField& f : numericFields()) {
    EXPECT_EQ(tally.reached.count(f.path), 1u) << f.path << ": no value reached the evaluation";
  }
}

// Several fields at once, at their domain's edges or anywhere inside (log-uniform), drawn from
// a fixed seed: the contradictions and overflows that only appear in combination.
TEST(DomainProperty, RandomCombinationsAtTheEdgesAreRefusedOrPossible) {
  const std::vector<ScenarioDesc> all = bases();
  const std::vector<ScenarioField> numeric = numericFields();
  std::mt19937_64 rng(19);
  const size_t rounds = simtest::SANITIZED ? 1000 : 10000;
  Tally tally;
  for (size_t round = 0; round < rounds; ++round) {
    const ScenarioDesc& base = all[rng() % all.size()];
    std::vector<std::string> assignments;
    const size_t count = 2 + rng() % 6;
    for (size_t k = 0; k < count; ++k) {
      const ScenarioField& f = numeric[rng() % numeric.size()];
      const Domain& d = f.domain;
      double value = 0;
      switch (rng() % 8) {
        case 0:
          value = d.min;
          break;
        case 1:
          value = d.max;
          break;
        case 2:
        case 3:
        case 4:
        case 5:
        case 6: {  // log-uniform inside
          const double lo = std::log(std::max(d.min, 1e-12)), hi = std::log(std::max(d.max, 1e-12));
          value = std::exp(lo + (hi - lo) * double(rng() % 1000000) / 1e6);
          value = std::clamp(d.integer ? std::round(value) : value, d.min, d.max);
          break;
        }
        default: {  // any edge, in or out
          const std::vector<double> e = edges(d);
          value = e[rng() % e.size()];
        }
      }
      assignments.push_back(f.path + "=" + setText(value));
    }
    std::string what = base.name;
    for (const std::string& a : assignments) what += " --set " + a;
    checkCase(base, assignments, what, tally);
  }
  std::printf("[ combos ] %zu cases: %zu refused by --set, %zu by the evaluation, %zu evaluated\n",
              tally.cases, tally.refusedSet, tally.refusedEvaluation, tally.evaluated);
  EXPECT_GT(tally.evaluated, tally.cases / 10);
}

// Every figure of the shipped catalog at the smallest and the largest value its unit's domain
// allows (sim/domain.h), one at a time, on a training and a serving scenario: the catalog's
// loaders refuse it naming the figure, or the evaluation's outputs stay possible.
TEST(DomainProperty, EveryCatalogFigureAtItsUnitsEdgesIsRefusedOrPossible) {
  const std::vector<ScenarioDesc> all = bases();
  ASSERT_GE(all.size(), 2u);
  const Catalog& catalog = shipped();
  Tally tally;
  size_t index = 0;
  for (const auto& [path, q] : catalog.quantities()) {
    if (path.rfind("dimensions.", 0) == 0) continue;  // geometry: the world's, not the model's
    const Domain* d = catalogUnitDomain(q.unit);
    ASSERT_NE(d, nullptr) << path << " carries an undeclared unit " << q.unit;
    for (const double value : {d->min, d->max}) {
      ++index;
      if (simtest::SANITIZED && index % 4 != 0) continue;
      auto figures = catalog.quantities();
      figures[path].value = value;
      const Catalog changed = Catalog::fromParts(*catalog.json(""), figures);
      for (size_t b = 0; b < 2; ++b) {
        ++tally.cases;
        const std::string what = all[b].name + " with " + path + " = " + setText(value);
        auto r = evaluateScenario(all[b], changed);
        if (!r) {
          EXPECT_FALSE(r.isDefect()) << what << ": " << r.error();
          // Named, or a training step / run pushed past its declared domain (sim::domains::
          // TRAINING_STEP, TRAINING_TIME), which many figures set together and no one alone.
          const bool named = r.error().find(path.substr(path.rfind('.') + 1)) != std::string::npos;
          EXPECT_TRUE(named || r.error().find("outside the modelled domain") != std::string::npos)
              << what << ": the refusal does not name the figure: " << r.error();
          ++tally.refusedEvaluation;
          continue;
        }
        ++tally.evaluated;
        for (const Output& o : r->outputs) {
          if (std::string why = impossible(o); !why.empty()) {
            ADD_FAILURE() << what << ": " << why;
            break;
          }
        }
      }
    }
  }
  std::printf("[ catalog ] %zu cases: %zu refused, %zu evaluated\n", tally.cases,
              tally.refusedEvaluation, tally.evaluated);
  EXPECT_GT(tally.evaluated, 0u);
}

namespace {

// Converts to any type a scenario member has (and to no other, so no constructor template of
// std::string is a candidate): counts how many initializers an aggregate takes.
struct AnyMember {
  operator int() const;
  operator double() const;
  operator std::string() const;
};

template <class T, class... Members>
constexpr size_t memberCount() {
  if constexpr (requires { T{Members{}..., AnyMember{}}; }) {
    return memberCount<T, Members..., AnyMember>();
  } else {
    return sizeof...(Members);
  }
}

}  // namespace

// The parser and --set look paths up in the table the property tests enumerate, so a field the
// table lacks cannot be set at all. What remains to hold: the table reaches every member of
// ScenarioDesc (counted from the structs themselves, so a member added without a table row
// fails here), each row a different member, and no row twice.
TEST(DomainProperty, TheFieldTableCoversEveryMemberOfTheScenario) {
  const size_t members = 2 /* name, description */ + memberCount<ClusterDesc>() +
                         memberCount<AcceleratorDesc>() + memberCount<ModelDesc>() +
                         memberCount<WorkloadDesc>() + memberCount<CollectiveDesc>() +
                         memberCount<FacilityDesc>() + memberCount<CostDesc>();
  EXPECT_EQ(memberCount<ClusterDesc>(), 9u) << "the counting itself, on a struct read by eye";
  const std::vector<ScenarioField> table = scenarioFields();
  EXPECT_EQ(table.size(), members) << "a ScenarioDesc member has no row in the field table";
  std::set<std::string> paths;
  for (const ScenarioField& f : table) EXPECT_TRUE(paths.insert(f.path).second) << f.path;
  // Each row sets its own member: setting another row afterwards leaves this one's value.
  for (const ScenarioField& f : table) {
    ScenarioDesc changed;
    const std::string value = f.kind == FieldKind::Text
                                  ? (f.choices.empty() ? std::string("changed") : f.choices.back())
                                  : setText(f.domain.max);
    ASSERT_TRUE(applyOverride(changed, f.path + "=" + value).ok()) << f.path << "=" << value;
    for (const ScenarioField& other : table) {
      if (other.path == f.path) continue;
      // Setting `other` to its default text on `changed` must not undo `f`: were they one member,
      // the second assignment would overwrite the first.
      ScenarioDesc again = changed;
      ScenarioDesc defaults;
      const std::string back = scenarioFieldValue(defaults, other.path);
      ASSERT_TRUE(applyOverride(again, other.path + "=" + back).ok()) << other.path;
      EXPECT_EQ(scenarioFieldValue(again, f.path), scenarioFieldValue(changed, f.path))
          << f.path << " and " << other.path << " set the same member";
    }
  }
}

// docs/reliability.md lists every domain as the code declares it (scenario fields, engine fields,
// catalog units), so the document cannot drift from the tables.
TEST(DomainProperty, ReliabilityDocListsEveryDomain) {
  std::ifstream in(testpaths::sourceDir() / "docs" / "reliability.md");
  ASSERT_TRUE(in) << "docs/reliability.md missing";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  auto row = [](const std::string& name, const Domain& d) {
    return "| `" + name + "` | " + describeDomain(d) + " |";
  };
  for (const ScenarioField& f : numericFields()) {
    EXPECT_NE(doc.find(row(f.path, f.domain)), std::string::npos) << row(f.path, f.domain);
  }
  for (const engine::EngineField& f : engine::engineFields()) {
    EXPECT_NE(doc.find(row(f.path, f.domain)), std::string::npos) << row(f.path, f.domain);
  }
  for (const std::string& unit : catalogUnits()) {
    EXPECT_NE(doc.find(row(unit, *catalogUnitDomain(unit))), std::string::npos) << unit;
  }
}
