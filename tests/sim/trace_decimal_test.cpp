// Decimal text to integer nanoseconds (sim/trace/decimal.h), checked against values worked out by
// hand from the digits.
#include <gtest/gtest.h>

#include "sim/trace/decimal.h"

using sim::trace::exactInteger;
using sim::trace::scaledInteger;

namespace {
constexpr int64_t BIG = int64_t(1) << 62;
}

TEST(TraceDecimal, MicrosecondsToNanosecondsExactly) {
  EXPECT_EQ(scaledInteger("1712195495519689.047", 3, BIG), 1712195495519689047);
  EXPECT_EQ(scaledInteger("4458676522690.655", 3, BIG), 4458676522690655);
  EXPECT_EQ(scaledInteger("1682725898236567", 3, BIG), 1682725898236567000);
  EXPECT_EQ(scaledInteger("68.0", 3, BIG), 68000);
  EXPECT_EQ(scaledInteger("0", 3, BIG), 0);
  EXPECT_EQ(scaledInteger("-0.0", 3, BIG), 0);
  EXPECT_EQ(scaledInteger("2.5e2", 3, BIG), 250000);
  EXPECT_EQ(scaledInteger("1E-3", 3, BIG), 1);
  EXPECT_EQ(scaledInteger("-12.5", 3, BIG), -12500);
  // A double could not carry the first: its nearest double is 1712195495519689.0.
  EXPECT_NE(static_cast<int64_t>(1712195495519689.047 * 1000.0), 1712195495519689047);
}

TEST(TraceDecimal, RoundsHalvesAwayFromZero) {
  EXPECT_EQ(scaledInteger("0.0005", 3, BIG), 1);   // 0.5 ns
  EXPECT_EQ(scaledInteger("0.00049", 3, BIG), 0);  // 0.49 ns
  EXPECT_EQ(scaledInteger("-0.0005", 3, BIG), -1);
  EXPECT_EQ(scaledInteger("1.99999", 3, BIG), 2000);
  EXPECT_EQ(scaledInteger("1e-400", 3, BIG), 0);
}

TEST(TraceDecimal, OutOfRangeIsNoValue) {
  EXPECT_EQ(scaledInteger("1e400", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("123456789012345678901234567890", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("4611686018427387.904", 3, BIG), BIG);  // 2^62 ns: the limit itself
  EXPECT_EQ(scaledInteger("4611686018427387.905", 3, BIG), std::nullopt);  // 1 ns over
  EXPECT_EQ(scaledInteger("-4611686018427387.905", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("-", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("1e", 3, BIG), std::nullopt);
  EXPECT_EQ(scaledInteger("1x", 3, BIG), std::nullopt);
}

TEST(TraceDecimal, ExactIntegersOnly) {
  EXPECT_EQ(exactInteger("7", BIG), 7);
  EXPECT_EQ(exactInteger("7.0", BIG), 7);
  EXPECT_EQ(exactInteger("7e2", BIG), 700);
  EXPECT_EQ(exactInteger("-3", BIG), -3);
  EXPECT_EQ(exactInteger("7.5", BIG), std::nullopt);
  EXPECT_EQ(exactInteger("0.001", BIG), std::nullopt);
  EXPECT_EQ(exactInteger("1e300", BIG), std::nullopt);
  EXPECT_EQ(exactInteger("9223372036854775807", BIG), std::nullopt);
}
