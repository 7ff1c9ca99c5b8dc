#include "perfci/stats/detectable_effect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace perfci::stats {
namespace {

TEST(DetectableEffectTest, MatchesTheNormalPowerFormula) {
  // z_.975 + z_.8 = 1.959964 + 0.841621 = 2.801585; sigma 2%, 30 pairs.
  const double n_eff = 30 * 3 / std::numbers::pi;
  const double expected = std::expm1(2.8015852 * 0.02 / std::sqrt(n_eff));
  EXPECT_NEAR(minimum_detectable_effect(0.02, 30), expected, 1e-7);
  EXPECT_NEAR(minimum_detectable_effect(0.02, 30), 0.01052, 1e-4);
}

TEST(DetectableEffectTest, ShrinksWithPairsAndGrowsWithNoiseAndStrictness) {
  EXPECT_LT(minimum_detectable_effect(0.02, 120), minimum_detectable_effect(0.02, 30));
  EXPECT_NEAR(minimum_detectable_effect(0.02, 120) / minimum_detectable_effect(0.02, 30), 0.5,
              0.01);
  EXPECT_GT(minimum_detectable_effect(0.04, 30), minimum_detectable_effect(0.02, 30));
  DetectableEffectOptions strict;
  strict.alpha = 0.001;
  strict.power = 0.95;
  EXPECT_GT(minimum_detectable_effect(0.02, 30, strict), minimum_detectable_effect(0.02, 30));
}

TEST(DetectableEffectTest, TooFewPairsDetectNothing) {
  // Five pairs: the exact test's smallest p is 1/16 > 0.05.
  EXPECT_TRUE(std::isinf(minimum_detectable_effect(0.02, 5)));
  EXPECT_TRUE(std::isfinite(minimum_detectable_effect(0.02, 6)));
  EXPECT_TRUE(std::isinf(minimum_detectable_effect(0.02, 0)));
}

TEST(DetectableEffectTest, FromAnIntervalScalesItsHalfWidthByThePower) {
  // Half-width 0.03 on the log scale: 0.03 x 2.801585 / 1.959964 = 0.042882.
  EXPECT_NEAR(interval_detectable_effect(-0.05, 0.01), std::expm1(0.042882), 1e-5);
  EXPECT_EQ(interval_detectable_effect(0.02, 0.02), 0.0);
  EXPECT_THROW(interval_detectable_effect(0.01, -0.01), std::invalid_argument);
  EXPECT_THROW(interval_detectable_effect(0, INFINITY), std::invalid_argument);
}

TEST(DetectableEffectTest, NoNoiseMeansAnyChangeIsVisible) {
  EXPECT_EQ(minimum_detectable_effect(0, 20), 0.0);
}

TEST(DetectableEffectTest, RejectsInvalidInputs) {
  EXPECT_THROW(minimum_detectable_effect(-1, 20), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_effect(NAN, 20), std::invalid_argument);
  DetectableEffectOptions bad;
  bad.power = 1;
  EXPECT_THROW(minimum_detectable_effect(0.02, 20, bad), std::invalid_argument);
}

// The unpaired and interval forms check their inputs as the paired one does:
// a NaN or infinite spread would otherwise come out as a NaN "detectable"
// effect that every comparison with it silently passes.
TEST(DetectableEffectTest, UnpairedAndIntervalFormsRejectInvalidInputs) {
  DetectableEffectOptions alpha_one;
  alpha_one.alpha = 1;
  DetectableEffectOptions power_zero;
  power_zero.power = 0;
  DetectableEffectOptions power_one;
  power_one.power = 1;
  for (const DetectableEffectOptions& bad : {alpha_one, power_zero, power_one}) {
    EXPECT_THROW(unpaired_detectable_effect(0.02, 20, 0.02, 20, bad), std::invalid_argument);
    EXPECT_THROW(interval_detectable_effect(-0.01, 0.01, bad), std::invalid_argument);
  }
  EXPECT_THROW(unpaired_detectable_effect(-0.01, 20, 0.02, 20), std::invalid_argument);
  EXPECT_THROW(unpaired_detectable_effect(INFINITY, 20, 0.02, 20), std::invalid_argument);
  EXPECT_THROW(unpaired_detectable_effect(0.02, 20, NAN, 20), std::invalid_argument);
  EXPECT_THROW(unpaired_detectable_effect(0.02, 20, INFINITY, 20), std::invalid_argument);
  EXPECT_THROW(interval_detectable_effect(NAN, 0.01), std::invalid_argument);
}

TEST(DetectableEffectTest, UnpairedWithAnEmptySideDetectsNothing) {
  EXPECT_TRUE(std::isinf(unpaired_detectable_effect(0.02, 0, 0.02, 20)));
  EXPECT_TRUE(std::isinf(unpaired_detectable_effect(0.02, 20, 0.02, 0)));
  EXPECT_TRUE(std::isfinite(unpaired_detectable_effect(0.02, 20, 0.02, 20)));
}

}  // namespace
}  // namespace perfci::stats
