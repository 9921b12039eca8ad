// Engine requests (sim/engine/request.h): field overrides on engine scenarios by dotted path,
// fault specs built and parsed as the command line's, faults injected and cleared at "now".
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"

namespace {

using namespace sim::engine;

EngineDesc training() {
  auto d = builtinScenario("training_405b");
  EXPECT_TRUE(d) << d.error();
  return *d;
}

TEST(EngineRequest, OverridesSetEachKindOfField) {
  EngineDesc d = training();
  ASSERT_TRUE(applyEngineOverride(d, "workload.training.tp=4"));
  ASSERT_TRUE(applyEngineOverride(d, "workload.training.precision=fp8"));
  ASSERT_TRUE(applyEngineOverride(d, "workload.training.model=llama3_1_70b"));
  ASSERT_TRUE(applyEngineOverride(d, "workload.training.seq_len_tokens=4096"));
  ASSERT_TRUE(applyEngineOverride(d, "cluster.rail_optimized=false"));
  ASSERT_TRUE(applyEngineOverride(d, "workload.kind=inference"));
  ASSERT_TRUE(applyEngineOverride(d, "workload.inference.replicas=72"));
  EXPECT_EQ(d.workload.training.tp, 4);
  EXPECT_EQ(d.workload.training.precision, sim::Precision::FP8);
  EXPECT_EQ(d.workload.training.modelId, "llama3_1_70b");
  EXPECT_EQ(d.workload.training.seqLen_tokens, 4096.0);
  EXPECT_FALSE(d.cluster.railOptimized);
  EXPECT_EQ(d.workload.kind, sim::engine::WorkloadKind::Inference);
  EXPECT_EQ(d.workload.inference.replicas, 72u);
}

TEST(EngineRequest, RefusedOverridesNameThemselvesAndChangeNothing) {
  const EngineDesc before = training();
  for (const char* bad :
       {"workload.training.tp=abc", "workload.training.tp=2.5", "workload.training.tp=0",
        "workload.training.zero_stage=4", "workload.training.precision=fp7",
        "cluster.rail_optimized=yes", "workload.kind=serving",
        "workload.training.model=", "no.such.field=1", "workload.training.tp"}) {
    EngineDesc d = before;
    auto applied = applyEngineOverride(d, bad);
    ASSERT_FALSE(applied) << bad;
    EXPECT_NE(applied.error().find(bad), std::string::npos) << applied.error();
    for (const std::string& path : engineFieldPaths()) {
      EXPECT_EQ(engineFieldValue(d, path), engineFieldValue(before, path)) << path;
    }
  }
}

TEST(EngineRequest, EveryFieldRoundTripsThroughItsText) {
  const EngineDesc d = training();
  EXPECT_EQ(engineFieldValue(d, "workload.training.tp"), std::to_string(d.workload.training.tp));
  EXPECT_EQ(engineFieldValue(d, "workload.training.precision"), "bf16");
  EXPECT_EQ(engineFieldValue(d, "cluster.rail_optimized"), "true");
  EXPECT_EQ(engineFieldValue(d, "no.such.field"), "");
  for (const std::string& path : engineFieldPaths()) {
    EngineDesc copy = d;
    const std::string value = engineFieldValue(d, path);
    ASSERT_TRUE(applyEngineOverride(copy, path + "=" + value)) << path << "=" << value;
    EXPECT_EQ(engineFieldValue(copy, path), value) << path;
  }
}

TEST(EngineRequest, FaultSpecsParseBackToTheSameFault) {
  const FaultDesc faults[] = {
      {.kind = FaultKind::PumpTrip, .start_s = 12.5, .target = 0},
      {.kind = FaultKind::LinkDown, .start_s = 5, .end_s = 35, .target = 12},
      {.kind = FaultKind::PfcStorm, .start_s = 2, .end_s = 8, .target = 3, .deadlock = true},
      {.kind = FaultKind::Straggler, .start_s = 0.01, .target = 7, .severity = 0.25},
  };
  EXPECT_EQ(faultSpecText(faults[0]), "pump_trip:0@12.5");
  EXPECT_EQ(faultSpecText(faults[1]), "link_down:12@5-35");
  for (const FaultDesc& f : faults) {
    auto parsed = sim::engine::parseFaultSpec(faultSpecText(f));
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(parsed->kind, f.kind);
    EXPECT_EQ(parsed->target, f.target);
    EXPECT_EQ(parsed->start_s, f.start_s);
    EXPECT_EQ(parsed->end_s, f.end_s);
    EXPECT_EQ(parsed->severity, f.severity);
    EXPECT_EQ(parsed->deadlock, f.deadlock);
  }
}

TEST(EngineRequest, FaultsAreInjectedAndClearedNow) {
  auto injected = injectFault({}, FaultKind::PumpTrip, 3, 0.2, 42.5);
  ASSERT_TRUE(injected) << injected.error();
  ASSERT_EQ(injected->size(), 1u);
  EXPECT_EQ(faultSpecText(injected->front()), "pump_trip:3@42.5,severity=0.2");
  EXPECT_TRUE(std::isinf(injected->front().end_s));
  // Refused as the command line refuses it.
  auto bad = injectFault(*injected, FaultKind::Straggler, 0, 1.5, 1.0);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("severity"), std::string::npos) << bad.error();

  // One that has begun ends now; one that has not is dropped; no such fault is an error.
  auto two = injectFault(*injected, FaultKind::LinkDown, 1, 0, 50.0);
  ASSERT_TRUE(two);
  auto cleared = clearFault(*two, 0, 45.0);
  ASSERT_TRUE(cleared);
  EXPECT_EQ(cleared->at(0).end_s, 45.0);
  auto dropped = clearFault(*cleared, 1, 45.0);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->size(), 1u);
  EXPECT_FALSE(clearFault(*dropped, 1, 45.0));
}

TEST(EngineRequest, EngineDescIsTheScenarioWithOverridesAndFaults) {
  EngineRequest request;
  request.scenario = "pump_trip";
  request.overrides = {"workload.training.micro_batches=8"};
  request.faults = {{.kind = FaultKind::Straggler, .start_s = 3, .target = 5}};
  auto desc = engineDescOf(request);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(desc->workload.training.microBatches, 8);
  ASSERT_EQ(desc->faults.size(), 2u);
  EXPECT_EQ(desc->faults[0].kind, FaultKind::PumpTrip);  // the scenario's own first
  EXPECT_EQ(desc->faults[1].kind, FaultKind::Straggler);

  request.overrides.push_back("workload.training.tp=x");
  auto refused = engineDescOf(request);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("workload.training.tp=x"), std::string::npos);
  request.scenario = "no_such_scenario";
  EXPECT_FALSE(engineDescOf(request));
}

}  // namespace

// Issue 38, item 10: the what-if panel showed "true/false" fields and number formats as free text
// boxes. A field of a few values says which (the panel lists them); each one is accepted by an
// override and reads back as itself, and a value outside them is refused.
TEST(EngineRequest, AFieldOfAFewValuesListsThemAndTakesEachOne) {
  EXPECT_EQ(engineFieldChoices("cluster.rail_optimized"),
            (std::vector<std::string>{"true", "false"}));
  EXPECT_EQ(engineFieldChoices("workload.kind"),
            (std::vector<std::string>{"training", "inference"}));
  EXPECT_TRUE(engineFieldChoices("workload.training.tp").empty());  // a number
  EXPECT_TRUE(engineFieldChoices("no.such.field").empty());
  int listed = 0;
  for (const std::string& path : engineFieldPaths()) {
    for (const std::string& choice : engineFieldChoices(path)) {
      EngineDesc d = training();
      ASSERT_TRUE(applyEngineOverride(d, path + "=" + choice)) << path << "=" << choice;
      EXPECT_EQ(engineFieldValue(d, path), choice) << path;
      ++listed;
    }
    if (!engineFieldChoices(path).empty()) {
      EngineDesc d = training();
      EXPECT_FALSE(applyEngineOverride(d, path + "=maybe")) << path;
    }
  }
  // Kind, rail, and the training and serving number formats (four of them, seven each).
  EXPECT_GE(listed, 2 + 2 + 4 * 7);
}
