// The standard normal distribution, needed by the Wilcoxon normal
// approximation, BCa intervals and the detectable-effect calculation.
#pragma once

namespace perfci::stats {

// P(Z <= z).
double normal_cdf(double z);
// P(Z > z), accurate far into the upper tail where 1 - normal_cdf loses digits.
double normal_upper_tail(double z);
// The z with normal_cdf(z) == p; -inf at 0, +inf at 1, NaN outside [0, 1].
double normal_quantile(double p);

}  // namespace perfci::stats
