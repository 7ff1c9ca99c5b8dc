// Minimum detectable effect: the smallest relative change that a paired run
// with this many pairs and this much noise would flag, at the test's alpha,
// with the stated power. A report that says "unchanged" must also say how
// large a change could have hidden in the noise.
#pragma once

#include <cstddef>

namespace perfci::stats {

struct DetectableEffectOptions {
  double alpha = 0.05;  // two-sided
  double power = 0.8;
};

// sigma: the spread of the paired log-ratios (robust: kMadToSigma x MAD);
// pairs: nonzero pairs the signed-rank test will see. Returns the relative
// change, e.g. 0.021 for a 2.1% change; +infinity when no change is
// detectable: fewer pairs than the exact test needs to reach alpha at all.
//
// Normal power calculation for a paired shift on the log scale,
// (z_{1-alpha/2} + z_power) * sigma / sqrt(n_eff), with n_eff = n * 3/pi:
// the asymptotic efficiency of the signed-rank test relative to the t-test
// under normal noise.
double minimum_detectable_effect(double sigma, std::size_t pairs,
                                 const DetectableEffectOptions& options = {});

// The same for two unpaired samples of log values with spreads sigma_a,
// sigma_b and sizes n_a, n_b: (z_{1-alpha/2} + z_power) * sqrt(sigma_a^2/n_a
// + sigma_b^2/n_b) / sqrt(3/pi), the rank-sum test having the signed-rank
// test's efficiency 3/pi. +infinity when the rank-sum test cannot reach
// alpha at these sizes at all (rank_sum_min_p_value).
double unpaired_detectable_effect(double sigma_a, std::size_t n_a, double sigma_b, std::size_t n_b,
                                  const DetectableEffectOptions& options = {});

// The same, read off the run's own confidence interval of the log-ratio
// (bounds `log_lo`, `log_hi` at alpha): a true change of size MDE puts the
// estimate (z_{1-alpha/2} + z_power) / z_{1-alpha/2} half-widths away from 1,
// so the interval clears 1 with the stated power. Verdicts are decided by the
// interval, and one slow trial widens it far beyond what the MAD above sees;
// a report quotes the larger of the two, so it never claims to resolve a
// change its own interval could not.
double interval_detectable_effect(double log_lo, double log_hi,
                                  const DetectableEffectOptions& options = {});

}  // namespace perfci::stats
