// Change points of a performance series: one value per commit along
// first-parent history, oldest first (issue 16).
//
// - A deterministic metric (callgrind Ir) has no noise: every step between a
//   commit and its parent beyond the metric's threshold is a change point,
//   exactly where it happened.
// - A noisy metric (wall time, counters) is cut by E-Divisive means
//   (Matteson & James, "A Nonparametric Approach for Multiple Change Point
//   Analysis of Multivariate Data", JASA 2014): the split that maximises the
//   energy-distance divergence between the segments, kept when a permutation
//   test finds it significant at `alpha`, applied again to each segment until
//   no significant split is left. This is the method of MongoDB's CI
//   analysis and of Hunter. Each change point gets its magnitude (the ratio
//   of the medians of the segments either side) with an interval, and its
//   p-value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace perfci::stats {

struct ChangePoint {
  // The first value of the new level: the change happened between
  // series[index - 1] and series[index].
  std::size_t index = 0;
  double before = 0;  // median of the segment before (deterministic: the value before)
  double after = 0;   // median of the segment after
  // Deterministic: after / before - 1. E-Divisive: the Hodges–Lehmann
  // shift of the segments' log values as a ratio - 1, the estimate its
  // interval belongs to (the medians' ratio can fall outside that interval
  // on skewed segments).
  double magnitude = 0;
  // The interval of the magnitude; equal to it for a deterministic step;
  // -inf / +inf where the segments are too short for the level.
  double lo = 0;
  double hi = 0;
  // The permutation test's p-value; none for a deterministic step.
  std::optional<double> p_value;
};

// Every step |series[i] / series[i-1] - 1| > threshold, in order: the check's
// threshold rule (verdict_by_threshold), strict, so a step of exactly the
// threshold is not one. Throws std::invalid_argument on a value that is not
// positive and finite, or a negative threshold.
std::vector<ChangePoint> deterministic_steps(std::span<const double> series, double threshold);

struct EDivisiveOptions {
  double alpha = 0.05;          // significance level of each split
  int permutations = 199;       // per split; the smallest p-value is 1 / (permutations + 1)
  std::size_t min_segment = 3;  // values each side of a split, at least
  // Magnitudes smaller than this are not reported, however significant: a
  // 0.1% shift in wall time is not a change anyone acts on. Such a split
  // still separates the segments either side (so the medians of its
  // neighbours are not blurred across two levels); it is only left out of
  // the answer.
  double min_magnitude = 0;
  double confidence = 0.95;  // of each change point's [lo, hi]
  std::uint64_t seed = 1;    // the permutations' generator: the same input gives the same answer
};

// Significant change points, ordered by index.
//
// - A split is searched over each current segment, the right part running
//   to the segment's end (the paper's extra search over where the right part
//   ends, kappa, is left out). The statistic is the energy divergence with
//   exponent 1, scaled by m n / (m + n).
// - The permutation test permutes values within every current segment and
//   takes the maximum over all of them, as the observed statistic is (the
//   paper's test, R's ecp sig.test). p = (#{permuted >= observed} + 1) /
//   (permutations + 1); the first split with p > alpha stops the search.
// - [lo, hi] is the Hodges–Lehmann interval (rank_sum.h) of the shift of the
//   log values between the adjacent segments, as a ratio minus 1; -1 / +inf
//   where the segments are too short for the confidence (3 values against
//   3 cannot give a 95% interval).
//
// A series shorter than 2 * min_segment has none. Throws
// std::invalid_argument on a value that is not positive and finite, or
// options out of range (alpha or confidence outside (0, 1), no
// permutations, min_segment 0, negative min_magnitude).
std::vector<ChangePoint> e_divisive(std::span<const double> series,
                                    const EDivisiveOptions& options);

}  // namespace perfci::stats
