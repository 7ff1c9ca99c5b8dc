// Wilcoxon rank-sum (Mann–Whitney U) test, two-sided, of "A's and B's samples
// come from the same distribution": the test of an UNPAIRED A/B, where the
// two sides were measured separately (two Google Benchmark files, each
// repetition a sample) and no pair shares a moment of machine state.
//
// Ties across both samples get midranks. The p-value follows SciPy's
// mannwhitneyu(method="auto"), the test google/benchmark's compare.py runs,
// so a report and compare.py quote the same number: the EXACT null
// distribution of U when there are no ties and either sample has at most 8
// values; otherwise the normal approximation with the tie-corrected variance
// and a continuity correction of 1/2.
//
// The shift estimate and its interval are Hodges–Lehmann's: the median of
// all m x n differences b_j - a_i, and the distribution-free interval between
// two of their order statistics (Bauer 1972), whose positions come from the
// same null distribution of U. No resampling: the same data give the same
// interval everywhere.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace perfci::stats {

struct RankSumResult {
  std::size_t n_a = 0;
  std::size_t n_b = 0;
  double u_b = 0;      // U of B: pairs (a_i, b_j) with b_j > a_i, ties counting 1/2
  double z = 0;        // standardised U (continuity-corrected); 0 when undefined
  double p_value = 1;  // two-sided
  bool exact = false;  // p from the exact distribution
  bool ties = false;   // some values were tied (midranks used)
  friend bool operator==(const RankSumResult&, const RankSumResult&) = default;
};

// Throws std::invalid_argument on an empty side or a value that is not finite.
RankSumResult rank_sum_test(std::span<const double> a, std::span<const double> b);

// The smallest two-sided p-value any data of these sizes can reach, 2 /
// C(m+n, m) (capped at 1): with 3 repetitions a side it is 0.1, so nothing
// is significant at 0.05 however clear it looks.
double rank_sum_min_p_value(std::size_t n_a, std::size_t n_b);

// The null distribution of U for sizes m and n without ties: counts[u] is
// the number of the C(m+n, m) orderings with U = u, u = 0 .. m*n (as doubles:
// they can exceed 64 bits). The Gaussian binomial coefficient, built factor
// by factor.
std::vector<double> rank_sum_null_counts(std::size_t m, std::size_t n);

struct ShiftEstimate {
  double estimate = 0;  // Hodges–Lehmann: median of b_j - a_i
  double lo = 0;        // -inf / +inf when the samples are too few for the level
  double hi = 0;
  double level = 0;  // the interval's nominal confidence
};

// Of b - a. Throws std::invalid_argument like rank_sum_test, or on a
// confidence outside (0, 1).
ShiftEstimate hodges_lehmann_shift(std::span<const double> a, std::span<const double> b,
                                   double confidence);

}  // namespace perfci::stats
