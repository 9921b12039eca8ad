// Faults as text (CLI and UI): every field reaches the FaultDesc, and malformed specs are refused
// with a message that quotes the spec.
#include <cmath>

#include <gtest/gtest.h>

#include "sim/engine/fault_spec.h"

using sim::engine::FaultKind;
using sim::engine::parseFaultSpec;

TEST(FaultSpec, ParsesEveryField) {
  auto f = parseFaultSpec("link_down:12@5-20");
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f->kind, FaultKind::LinkDown);
  EXPECT_EQ(f->target, 12u);
  EXPECT_DOUBLE_EQ(f->start_s, 5.0);
  EXPECT_DOUBLE_EQ(f->end_s, 20.0);

  auto pump = parseFaultSpec("pump_trip@10.5,severity=0.2");
  ASSERT_TRUE(pump.ok()) << pump.error();
  EXPECT_EQ(pump->kind, FaultKind::PumpTrip);
  EXPECT_EQ(pump->target, 0u);
  EXPECT_DOUBLE_EQ(pump->start_s, 10.5);
  EXPECT_TRUE(std::isinf(pump->end_s));
  EXPECT_DOUBLE_EQ(pump->severity, 0.2);

  auto storm = parseFaultSpec("pfc_storm:3@2-8,deadlock");
  ASSERT_TRUE(storm.ok()) << storm.error();
  EXPECT_TRUE(storm->deadlock);
  EXPECT_EQ(parseFaultSpec("straggler:7@1")->kind, FaultKind::Straggler);
}

TEST(FaultSpec, RefusesMalformedSpecs) {
  for (const char* bad : {"", "link_down", "melt@1", "link_down:-1@1", "link_down:x@1",
                          "link_down@-3", "link_down@5-2", "link_down@nan",
                          "pump_trip@1,severity=2", "link_down@1,deadlock", "straggler@1,turbo"}) {
    auto f = parseFaultSpec(bad);
    EXPECT_FALSE(f.ok()) << bad;
    if (!f.ok()) {
      EXPECT_NE(f.error().find(std::string("\"") + bad + "\""), std::string::npos) << f.error();
    }
  }
}

// Issue 40: "1e-3" was split at its exponent's sign as a START-END range, and a fault at 1e9 s,
// which no command runs to, was taken silently.
TEST(FaultSpec, ExponentsAreNotRangesAndTimesStayWithinADay) {
  auto small = parseFaultSpec("link_down@1e-3");
  ASSERT_TRUE(small.ok()) << small.error();
  EXPECT_DOUBLE_EQ(small->start_s, 1e-3);
  EXPECT_TRUE(std::isinf(small->end_s));
  auto range = parseFaultSpec("link_down@1E-3-2e-3");
  ASSERT_TRUE(range.ok()) << range.error();
  EXPECT_DOUBLE_EQ(range->start_s, 1e-3);
  EXPECT_DOUBLE_EQ(range->end_s, 2e-3);
  EXPECT_TRUE(parseFaultSpec("link_down@86400").ok());
  for (const char* late : {"link_down@86401", "link_down@1-1e9", "pump_trip@1e300"}) {
    auto f = parseFaultSpec(late);
    ASSERT_FALSE(f.ok()) << late;
    EXPECT_NE(f.error().find("0..86400 s"), std::string::npos) << f.error();
  }
}
