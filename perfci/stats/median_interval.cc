#include "perfci/stats/median_interval.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {

std::optional<MedianInterval> median_interval(std::span<const double> x, double level) {
  if (!(level > 0 && level < 1))
    throw std::invalid_argument("median_interval: level outside (0, 1)");
  const std::size_t n = x.size();
  if (n == 0) return std::nullopt;
  // P(B <= j) for B ~ Binomial(n, 1/2), summed in log space so that large n
  // neither overflows nor underflows.
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  auto log_choose = [n](std::size_t j) {
    return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(j) + 1) -
           std::lgamma(static_cast<double>(n - j) + 1);
  };
  // [x(k), x(n-k+1)] (1-based) covers the median with probability
  // 1 - 2 P(B <= k-1); take the largest k that keeps it >= level.
  double tail = 0;  // P(B <= k-1)
  std::size_t best_k = 0;
  double best_coverage = 0;
  for (std::size_t k = 1; 2 * k <= n + 1; ++k) {
    tail += std::exp(log_choose(k - 1) + log_half_n);
    const double coverage = 1 - 2 * tail;
    if (coverage < level) break;
    best_k = k;
    best_coverage = coverage;
  }
  if (best_k == 0) return std::nullopt;
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  return MedianInterval{sorted[best_k - 1], sorted[n - best_k], best_coverage};
}

}  // namespace perfci::stats
