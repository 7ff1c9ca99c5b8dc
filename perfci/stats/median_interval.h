// A distribution-free confidence interval of a median: two order statistics
// chosen by the binomial distribution (the sign-test interval; Conover,
// "Practical Nonparametric Statistics", 3rd ed., §3.2). It assumes only
// independent samples, which is what repeated trials of one benchmark are;
// the history keeps it beside each stored median so a trend chart can show
// how sure each point is.
#pragma once

#include <optional>
#include <span>

namespace perfci::stats {

struct MedianInterval {
  double lo = 0;
  double hi = 0;
  double coverage = 0;  // its exact coverage, >= the level asked for
};

// The narrowest interval [x(k), x(n-k+1)] whose exact coverage is at least
// `level`; none when n samples cannot give that coverage (95% needs n >= 6).
std::optional<MedianInterval> median_interval(std::span<const double> x, double level = 0.95);

}  // namespace perfci::stats
