// Wilcoxon signed-rank test, two-sided, of "the differences are symmetric
// about 0" (for perfci: the paired log-ratios, so H0 is "B is as fast as A").
//
// Ties among |d| get midranks. Zero differences are handled by Pratt's
// method by default: they take part in the ranking (so they push the nonzero
// differences to higher ranks) but carry no sign. Dropping them (Wilcoxon's
// original rule, R's wilcox.test) is available; it overstates the evidence
// when many pairs are identical, as quantised counters often are.
//
// Small samples use the EXACT null distribution of W+ given the observed
// ranks (a subset-sum count over the doubled midranks, so ties and Pratt's
// shifted ranks are exact too). Larger ones use the normal approximation with
// the mean and variance of that same distribution (the tie correction) and a
// continuity correction of 1/2.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace perfci::stats {

enum class ZeroMethod {
  kPratt,  // rank zeros, then give them no sign
  kDrop,   // remove zeros before ranking
};

struct WilcoxonOptions {
  ZeroMethod zero_method = ZeroMethod::kPratt;
  // Largest number of nonzero differences for the exact distribution. The
  // count is cheap (about n^3 / 2 steps); beyond 62 its 64-bit counts would
  // overflow, so larger settings are capped there.
  std::size_t exact_max_n = 25;
  bool continuity_correction = true;
};

struct WilcoxonResult {
  std::size_t n = 0;      // nonzero differences: the ones that carry a sign
  std::size_t zeros = 0;  // zero differences (ranked but signless under Pratt; else dropped)
  double w_plus = 0;      // rank sum of the positive differences
  double w_minus = 0;     // rank sum of the negative differences
  double z = 0;           // standardised W+ (continuity-corrected); 0 when undefined
  double p_value = 1;     // two-sided
  bool exact = false;     // p from the exact distribution
  bool ties = false;      // some |d| were tied (midranks used)

  friend bool operator==(const WilcoxonResult&, const WilcoxonResult&) = default;
};

// Throws std::invalid_argument on a difference that is not finite.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    const WilcoxonOptions& options = {});

// The smallest two-sided p-value an exact test of n untied nonzero
// differences can reach (2 / 2^n, capped at 1): below it no data, however
// clear, is significant.
double wilcoxon_min_p_value(std::size_t n);

std::string_view to_string(ZeroMethod method);

}  // namespace perfci::stats
