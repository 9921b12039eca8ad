// Engine checkpoints (Engine::clone) and fault lists replaced mid-run (Engine::replaceFaults):
// what the sim host uses so that a fault injected or cleared "now" never reruns from t = 0. The
// reference is always a fresh engine given the final fault list from the start.
#include <vector>

#include "sim/engine/fault_spec.h"
#include "tests/sim/engine_test_util.h"

namespace {

using sim::engine::EngineDesc;
using sim::engine::FaultDesc;
using sim::engine::FaultKind;
using sim::engine::NEVER_S;

EngineDesc scenario(const char* name, std::vector<FaultDesc> faults = {}) {
  auto d = sim::engine::builtinScenario(name);
  EXPECT_TRUE(d) << d.error();
  EngineDesc desc = *d;
  desc.faults.insert(desc.faults.end(), faults.begin(), faults.end());
  return desc;
}

FaultDesc fault(FaultKind kind, uint32_t target, double start_s, double end_s = NEVER_S,
                double severity = 0) {
  FaultDesc f;
  f.kind = kind;
  f.target = target;
  f.start_s = start_s;
  f.end_s = end_s;
  f.severity = severity;
  return f;
}

TEST(EngineCheckpoint, ACloneRunsOnExactlyAsTheOriginal) {
  for (const char* name : {"training_405b", "inference_70b"}) {
    auto original = enginetest::makeBuiltin(name);
    ASSERT_TRUE(original);
    original->advanceTo(12.0);
    auto copy = original->clone();
    EXPECT_EQ(copy->stateHash(), original->stateHash()) << name;
    original->advanceTo(40.0);
    copy->advanceTo(40.0);
    EXPECT_EQ(copy->stateHash(), original->stateHash()) << name;
    EXPECT_EQ(copy->completedSteps(), original->completedSteps()) << name;
    // The copy owns its state: stepping it leaves the original where it was.
    const uint64_t before = original->stateHash();
    copy->advanceTo(60.0);
    EXPECT_EQ(original->stateHash(), before) << name;
  }
}

// A fault added at "now" to a checkpoint gives the state a fresh engine with that fault from the
// start reaches, for every kind of fault.
TEST(EngineCheckpoint, AFaultInjectedIntoACheckpointEqualsARunWithItFromTheStart) {
  const std::vector<FaultDesc> injected = {
      fault(FaultKind::LinkDown, 3, 25.0),
      fault(FaultKind::PfcStorm, 2, 25.0, 40.0),
      fault(FaultKind::PumpTrip, 0, 25.0),
      fault(FaultKind::Straggler, 5, 25.0, NEVER_S, 0.5),
  };
  for (const FaultDesc& f : injected) {
    auto running = enginetest::make(scenario("training_405b"));
    ASSERT_TRUE(running);
    running->advanceTo(25.0);
    auto checkpoint = running->clone();
    ASSERT_TRUE(checkpoint->replaceFaults({f})) << int(f.kind);
    checkpoint->advanceTo(70.0);
    auto reference = enginetest::make(scenario("training_405b", {f}));
    reference->advanceTo(70.0);
    EXPECT_EQ(checkpoint->stateHash(), reference->stateHash()) << "fault kind " << int(f.kind);
    EXPECT_EQ(checkpoint->completedSteps(), reference->completedSteps()) << int(f.kind);
  }
}

TEST(EngineCheckpoint, AFaultClearedNowEqualsARunWhereItEndedThen) {
  const FaultDesc trip = fault(FaultKind::PumpTrip, 0, 5.0);
  auto running = enginetest::make(scenario("training_405b", {trip}));
  running->advanceTo(30.0);
  FaultDesc cleared = trip;
  cleared.end_s = running->time_s();
  ASSERT_TRUE(running->replaceFaults({cleared}));
  running->advanceTo(80.0);
  auto reference = enginetest::make(scenario("training_405b", {cleared}));
  reference->advanceTo(80.0);
  EXPECT_EQ(running->stateHash(), reference->stateHash());
}

TEST(EngineCheckpoint, AChangeBeforeNowIsRefusedAndChangesNothing) {
  auto running = enginetest::make(scenario("training_405b"));
  running->advanceTo(30.0);
  const uint64_t before = running->stateHash();
  // A fault that would have started 10 s ago, and a scenario fault cleared in the past.
  auto refused = running->replaceFaults({fault(FaultKind::PumpTrip, 0, 20.0)});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("earlier"), std::string::npos) << refused.error();
  EXPECT_EQ(running->stateHash(), before);
  EXPECT_TRUE(running->desc().faults.empty());
  // An invalid target is refused by the same check a new engine applies.
  EXPECT_FALSE(running->replaceFaults({fault(FaultKind::PumpTrip, 1u << 30, 40.0)}));
}

TEST(EngineCheckpoint, FirstDifferenceIsWhereTheFaultListsStopAgreeing) {
  const FaultDesc a = fault(FaultKind::LinkDown, 1, 10.0);
  const FaultDesc b = fault(FaultKind::PumpTrip, 0, 50.0, 90.0);
  EXPECT_EQ(sim::engine::firstDifference_s({a, b}, {b, a}), NEVER_S);  // order does not matter
  EXPECT_EQ(sim::engine::firstDifference_s({a}, {a, b}), 50.0);        // b added: from its start
  EXPECT_EQ(sim::engine::firstDifference_s({a, b}, {b}), 10.0);        // a removed
  FaultDesc bSooner = b;
  bSooner.end_s = 70.0;
  EXPECT_EQ(sim::engine::firstDifference_s({a, b}, {a, bSooner}), 70.0);  // cleared sooner
}

}  // namespace
