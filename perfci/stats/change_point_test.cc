#include "perfci/stats/change_point.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "perfci/stats/verdict.h"

namespace perfci::stats {
namespace {

// --- deterministic_steps ---------------------------------------------------

TEST(DeterministicStepsTest, EveryStepBeyondTheThresholdExactlyWhereItHappened) {
  const std::vector<double> ir = {1000, 1000, 1100, 1100, 1100, 990, 990};
  const std::vector<ChangePoint> steps = deterministic_steps(ir, 0.05);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].index, 2u);
  EXPECT_EQ(steps[0].before, 1000);
  EXPECT_EQ(steps[0].after, 1100);
  EXPECT_NEAR(steps[0].magnitude, 0.1, 1e-12);
  EXPECT_EQ(steps[0].lo, steps[0].magnitude);
  EXPECT_EQ(steps[0].hi, steps[0].magnitude);
  EXPECT_FALSE(steps[0].p_value.has_value());
  EXPECT_EQ(steps[1].index, 5u);
  EXPECT_EQ(steps[1].before, 1100);
  EXPECT_EQ(steps[1].after, 990);
  EXPECT_NEAR(steps[1].magnitude, -0.1, 1e-12);
}

TEST(DeterministicStepsTest, AStepOfExactlyTheThresholdIsNotOne) {
  // 125/100 - 1 and 75/100 - 1 are exactly +-0.25 in binary.
  EXPECT_TRUE(deterministic_steps(std::vector<double>{100, 125, 125}, 0.25).empty());
  EXPECT_TRUE(deterministic_steps(std::vector<double>{100, 75}, 0.25).empty());
  const std::vector<ChangePoint> just_over =
      deterministic_steps(std::vector<double>{100, 125.001}, 0.25);
  ASSERT_EQ(just_over.size(), 1u);
  EXPECT_EQ(just_over[0].index, 1u);
}

TEST(DeterministicStepsTest, AgreesWithTheChecksThresholdRule) {
  // Whatever the check says of two commits' Ir, the history says of the same
  // step, rounding included: 1050/1000 - 1 is 0.05000000000000004, beyond a
  // 5% threshold for both.
  const double threshold = 0.05;
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{
           {1000, 1050}, {1000, 1049}, {1000, 950}, {1000, 951}, {3, 3.15}, {7, 7}}) {
    const bool step = !deterministic_steps(std::vector<double>{a, b}, threshold).empty();
    const bool beyond = verdict_by_threshold(b / a - 1, threshold, Direction::kHigherIsWorse) !=
                        Verdict::kUnchanged;
    EXPECT_EQ(step, beyond) << a << " -> " << b;
  }
}

TEST(DeterministicStepsTest, NoStepsInAFlatOrShortSeries) {
  EXPECT_TRUE(deterministic_steps(std::vector<double>{100, 101, 100, 99, 100}, 0.02).empty());
  EXPECT_TRUE(deterministic_steps(std::vector<double>{100}, 0).empty());
  EXPECT_TRUE(deterministic_steps(std::vector<double>{}, 0).empty());
  // Threshold 0: any change at all.
  EXPECT_EQ(deterministic_steps(std::vector<double>{100, 100, 101}, 0).size(), 1u);
}

TEST(DeterministicStepsTest, ABadValueOrThresholdIsACallerBug) {
  EXPECT_THROW(deterministic_steps(std::vector<double>{100, 0, 100}, 0.05), std::invalid_argument);
  EXPECT_THROW(deterministic_steps(std::vector<double>{100, -5}, 0.05), std::invalid_argument);
  EXPECT_THROW(deterministic_steps(std::vector<double>{100, std::nan("")}, 0.05),
               std::invalid_argument);
  EXPECT_THROW(deterministic_steps(std::vector<double>{100, 101}, -0.01), std::invalid_argument);
}

// --- e_divisive ------------------------------------------------------------

// Real wall-time noise: engine_bench --benchmark_filter='engine/point_lookup$'
// --benchmark_repetitions=60 --benchmark_min_time=0.1 (release build, this
// project's 2-core shared VM, load average 0.66, 2026-12-02T12:56:15Z), each
// repetition's real_time over the median of the 60 (2225.7 ns). CV 1.41%,
// MAD-based 1.52%. Measured back to back, neighbouring repetitions drift
// together (lag-1 autocorrelation 0.23), which E-Divisive rightly calls
// change points; commits of a history are measured in separate runs, so the
// tests shuffle the ratios (shuffled_noise) before building series from them.
// (Under load from other jobs this machine's CV was 2.7-15%, and between
// separate processes 9-13%: there a 3% step is not findable in 30 points.)
constexpr double kMeasuredNoise[] = {
    0.9999, 1.0100, 0.9875, 1.0018, 1.0107, 0.9887, 0.9818, 0.9976, 0.9860, 1.0061, 0.9879, 0.9951,
    0.9947, 0.9858, 1.0036, 1.0174, 0.9892, 0.9903, 1.0021, 1.0168, 1.0078, 1.0051, 1.0388, 1.0249,
    1.0111, 1.0015, 0.9986, 1.0019, 1.0032, 1.0037, 1.0001, 1.0065, 0.9871, 0.9860, 1.0181, 1.0019,
    1.0230, 0.9904, 0.9883, 0.9785, 0.9745, 0.9928, 1.0063, 1.0391, 0.9861, 0.9967, 1.0184, 1.0272,
    1.0010, 0.9948, 0.9860, 0.9988, 0.9904, 0.9895, 1.0180, 1.0071, 0.9938, 0.9861, 0.9864, 1.0186,
};

// The measured ratios in an order drawn once, with the same generator on
// every standard library (Fisher–Yates by modulo).
std::vector<double> shuffled_noise() {
  std::vector<double> x(std::begin(kMeasuredNoise), std::end(kMeasuredNoise));
  std::mt19937_64 rng(1);
  for (std::size_t i = x.size(); i > 1; --i) std::swap(x[i - 1], x[rng() % i]);
  return x;
}

// A benchmark of 2 µs whose level is multiplied by `factor` from `at` on.
std::vector<double> with_step(std::vector<double> noise, std::size_t n, std::size_t at,
                              double factor) {
  noise.resize(n);
  for (std::size_t i = 0; i < n; ++i) noise[i] *= 2000 * (i >= at ? factor : 1.0);
  return noise;
}

// Gaussian noise of the measured CV (1.5%), for properties that need many
// independent series: Box–Muller from the raw 64-bit stream, so the series do
// not depend on the library's std::normal_distribution.
std::vector<double> gaussian_noise(std::uint64_t seed, std::size_t n, double cv = 0.015) {
  std::mt19937_64 rng(seed);
  std::vector<double> x(n);
  for (double& v : x) {
    const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    v = 1 + cv * std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }
  return x;
}

TEST(EDivisiveTest, FindsAThreePercentStepInMeasuredNoiseExactlyWhereItIs) {
  const std::vector<double> series = with_step(shuffled_noise(), 30, 17, 1.03);
  const std::vector<ChangePoint> found = e_divisive(series, {});
  ASSERT_EQ(found.size(), 1u);
  const ChangePoint& c = found[0];
  EXPECT_EQ(c.index, 17u);
  ASSERT_TRUE(c.p_value.has_value());
  EXPECT_LE(*c.p_value, 0.05);
  EXPECT_GE(*c.p_value, 1.0 / 200);  // 199 permutations cannot say less
  EXPECT_LE(c.lo, 0.03);
  EXPECT_GE(c.hi, 0.03);
  EXPECT_LT(c.lo, c.magnitude);
  EXPECT_GT(c.hi, c.magnitude);
  // The Hodges–Lehmann estimate, close to the medians' ratio here.
  EXPECT_NEAR(c.magnitude, c.after / c.before - 1, 0.005);
}

TEST(EDivisiveTest, MeasuredNoiseAloneHasNoChangePoint) {
  const std::vector<double> noise = shuffled_noise();
  EXPECT_TRUE(e_divisive(with_step(noise, 30, 30, 1.0), {}).empty());
  EXPECT_TRUE(e_divisive(with_step(noise, 60, 60, 1.0), {}).empty());
}

TEST(EDivisiveTest, AAFalsePositivesAreConsistentWithAlpha) {
  // 50 A/A series of 30 points, each with its own permutation seed: 2 of the
  // 50 have a change point (41 of 1000 in a scratch run: 4.1%, at alpha 5%).
  // More than 7 of 50 has probability 0.3% at a true rate of 5%.
  int false_positives = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    EDivisiveOptions options;
    options.seed = seed;
    if (!e_divisive(with_step(gaussian_noise(seed, 30), 30, 30, 1.0), options).empty())
      ++false_positives;
  }
  EXPECT_LE(false_positives, 7);
}

TEST(EDivisiveTest, AThreePercentStepIsFoundInAlmostEveryNoiseDraw) {
  // At CV 1.5% a 3% step is 2 standard deviations. Over 1000 such series (a
  // scratch run of this loop) it was found, alone, in 94%, placed at exactly
  // 17 in 56% and at 16..18 in 78%, and the 95% interval held +3% in 90% of
  // those found (below 95%: the split is chosen where the segments differ
  // most, and sometimes a value off). These 50 give 46, 25, 40 and 46. So
  // the exact place in the measured-noise test above is that draw's, not a
  // promise. The bounds sit about 3 binomial standard deviations below the
  // rates, so what fails here is a real loss of power or placement (an
  // off-by-one index gets ~11% exact), not a different libm.
  int found_once = 0;
  int exact = 0;
  int within_one = 0;
  int covered = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    EDivisiveOptions options;
    options.seed = seed;
    const std::vector<ChangePoint> c =
        e_divisive(with_step(gaussian_noise(seed, 30), 30, 17, 1.03), options);
    if (c.size() != 1) continue;
    ++found_once;
    if (c[0].index == 17) ++exact;
    if (c[0].index >= 16 && c[0].index <= 18) ++within_one;
    if (c[0].lo <= 0.03 && 0.03 <= c[0].hi) ++covered;
  }
  EXPECT_GE(found_once, 42);
  EXPECT_GE(within_one, 31);
  EXPECT_GE(exact, 18);
  EXPECT_GE(covered, 36);
}

TEST(EDivisiveTest, FindsBothStepsOfTwo) {
  // +6% at 20, then -5% at 40, in 60 measured ratios: 4 and 3.5 standard
  // deviations. (With +5% and -4% the second lands at 43 in this draw, whose
  // ratios 40..45 happen to run high: see the placement counts above.)
  std::vector<double> series = with_step(shuffled_noise(), 60, 20, 1.06);
  for (std::size_t i = 40; i < 60; ++i) series[i] *= 0.95;
  const std::vector<ChangePoint> found = e_divisive(series, {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 20u);
  EXPECT_EQ(found[1].index, 40u);
  EXPECT_NEAR(found[0].magnitude, 0.06, 0.015);
  EXPECT_NEAR(found[1].magnitude, -0.05, 0.015);
  // before/after are the medians of the segments between the change points.
  EXPECT_EQ(found[0].after, found[1].before);
  for (const ChangePoint& c : found) {
    EXPECT_LE(*c.p_value, 0.05);
    EXPECT_LE(c.lo, c.magnitude);
    EXPECT_GE(c.hi, c.magnitude);
  }
}

TEST(EDivisiveTest, AStepCloserToAnEndThanMinSegmentIsNotClaimed) {
  // One odd value at either end is an outlier as far as three values a side
  // can tell, however large the step.
  const std::vector<double> noise = shuffled_noise();
  const std::vector<double> first_moved = with_step(noise, 30, 1, 1.2);
  EXPECT_TRUE(e_divisive(first_moved, {}).empty());
  const std::vector<double> last_moved = with_step(noise, 30, 29, 1.2);
  EXPECT_TRUE(e_divisive(last_moved, {}).empty());
  // And no answer ever lies within min_segment of an end.
  EDivisiveOptions options;
  options.min_segment = 5;
  for (const ChangePoint& c : e_divisive(with_step(noise, 30, 3, 1.2), options)) {
    EXPECT_GE(c.index, 5u);
    EXPECT_LE(c.index, 25u);
  }
}

TEST(EDivisiveTest, AConstantOrShortSeriesHasNone) {
  EXPECT_TRUE(e_divisive(std::vector<double>(40, 1234.5), {}).empty());
  EXPECT_TRUE(e_divisive(std::vector<double>{}, {}).empty());
  // 5 values cannot be split 3 and 3, however clear the step.
  EXPECT_TRUE(e_divisive(std::vector<double>{1, 1, 1, 2, 2}, {}).empty());
}

TEST(EDivisiveTest, TheSameSeedGivesTheSameAnswer) {
  std::vector<double> series = with_step(shuffled_noise(), 60, 25, 1.03);
  for (std::size_t i = 45; i < 60; ++i) series[i] *= 1.02;
  EDivisiveOptions options;
  options.seed = 42;
  const std::vector<ChangePoint> first = e_divisive(series, options);
  const std::vector<ChangePoint> again = e_divisive(series, options);
  ASSERT_FALSE(first.empty());
  ASSERT_EQ(first.size(), again.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    EXPECT_EQ(first[k].index, again[k].index);
    EXPECT_EQ(first[k].before, again[k].before);
    EXPECT_EQ(first[k].after, again[k].after);
    EXPECT_EQ(first[k].lo, again[k].lo);
    EXPECT_EQ(first[k].hi, again[k].hi);
    EXPECT_EQ(first[k].p_value, again[k].p_value);
  }
}

TEST(EDivisiveTest, SmallMagnitudesAreLeftOutButStillSplit) {
  // A +1% step at 30 and a +8% step at 60 in 90 points of 0.3% noise: both
  // significant; with min_magnitude 2% only the second is reported, and its
  // `before` is the median of 30..60 alone (the small split still stands).
  std::vector<double> series = gaussian_noise(7, 90, 0.003);
  for (std::size_t i = 0; i < 90; ++i) series[i] *= (i >= 30 ? 1.01 : 1.0) * (i >= 60 ? 1.08 : 1.0);
  const std::vector<ChangePoint> all = e_divisive(series, {});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].index, 30u);
  EXPECT_EQ(all[1].index, 60u);
  EDivisiveOptions options;
  options.min_magnitude = 0.02;
  const std::vector<ChangePoint> large = e_divisive(series, options);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].index, 60u);
  EXPECT_EQ(large[0].before, all[1].before);
  EXPECT_EQ(large[0].after, all[1].after);
}

TEST(EDivisiveTest, ShortSegmentsGiveAnUnboundedInterval) {
  // 4 values against 4 give a 95% shift interval (the extreme differences:
  // P(U = 0) = 1/70 is within 2.5%) but no 99% one.
  const std::vector<double> series = {100, 101, 99, 100, 150, 151, 149, 150};
  EDivisiveOptions options;
  options.confidence = 0.99;
  const std::vector<ChangePoint> found = e_divisive(series, options);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 4u);
  EXPECT_EQ(found[0].lo, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(found[0].hi, std::numeric_limits<double>::infinity());
}

TEST(EDivisiveTest, TwoThousandPointsFindTheirStep) {
  // 2000 points (years of nightly runs) with one step: one O(n log n)
  // statistic per permutation keeps this cheap enough for a unit test; what
  // is asserted is the step, never a time.
  std::vector<double> series = gaussian_noise(3, 2000);
  for (std::size_t i = 1200; i < series.size(); ++i) series[i] *= 1.02;
  const std::vector<ChangePoint> found = e_divisive(series, {});
  ASSERT_FALSE(found.empty());
  bool near = false;
  for (const ChangePoint& c : found) near = near || (c.index >= 1190 && c.index <= 1210);
  EXPECT_TRUE(near);
}

TEST(EDivisiveTest, BadValuesOrOptionsAreACallerBug) {
  EXPECT_THROW(e_divisive(std::vector<double>{1, 2, 0, 3, 4, 5}, {}), std::invalid_argument);
  EXPECT_THROW(e_divisive(std::vector<double>{1, 2, std::nan(""), 3, 4, 5}, {}),
               std::invalid_argument);
  const std::vector<double> ok = {1, 2, 3, 4, 5, 6};
  EDivisiveOptions o;
  o.alpha = 0;
  EXPECT_THROW(e_divisive(ok, o), std::invalid_argument);
  o = {};
  o.permutations = 0;
  EXPECT_THROW(e_divisive(ok, o), std::invalid_argument);
  o = {};
  o.min_segment = 0;
  EXPECT_THROW(e_divisive(ok, o), std::invalid_argument);
  o = {};
  o.min_magnitude = -0.1;
  EXPECT_THROW(e_divisive(ok, o), std::invalid_argument);
  o = {};
  o.confidence = 1;
  EXPECT_THROW(e_divisive(ok, o), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
