// Paired ratios B/A and the location estimators built on them. A and B are
// measured in alternating pairs, so pair i of A and pair i of B share the
// machine's state at that moment; their ratio cancels slow drift that an
// unpaired comparison would count as noise.
//
// Estimators work on log-ratios, where a 2x slowdown and a 2x speedup are
// symmetric, and are exponentiated back to a ratio: median_ratio is
// therefore exp(median(log(b/a))) (the geometric mean of the middle pair when
// n is even, not the arithmetic one).
#pragma once

#include <span>
#include <vector>

namespace perfci::stats {

// b[i] / a[i] for every pair. Throws std::invalid_argument when the sides
// differ in length, are empty, or a sample is negative or not finite, or
// exactly one side of a pair is 0 (the ratio is then undefined). 0 / 0 is a
// ratio of 1: a counter that read 0 on both sides did not change.
std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b);
// log(b[i] / a[i]), with the same checks.
std::vector<double> paired_log_ratios(std::span<const double> a, std::span<const double> b);

// Hodges–Lehmann location estimate: the median of the n(n+1)/2 Walsh
// averages (x_i + x_j) / 2, i <= j. The estimator that goes with the
// Wilcoxon signed-rank test; nearly as efficient as the mean on normal data
// and as robust as the median to outliers.
double hodges_lehmann(std::span<const double> x);
// The same, reusing *walsh as scratch space so repeated calls (bootstrap
// resamples) do not allocate.
double hodges_lehmann(std::span<const double> x, std::vector<double>* walsh);

// exp(median(log_ratios)).
double median_ratio(std::span<const double> log_ratios);
// exp(hodges_lehmann(log_ratios)).
double hodges_lehmann_ratio(std::span<const double> log_ratios);

// Median by selection, permuting x in place: the hot path of the bootstrap.
double median_in_place(std::span<double> x);

}  // namespace perfci::stats
