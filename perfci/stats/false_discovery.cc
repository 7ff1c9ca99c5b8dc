#include "perfci/stats/false_discovery.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace perfci::stats {

std::vector<double> benjamini_hochberg(std::span<const double> p_values) {
  const std::size_t m = p_values.size();
  for (double p : p_values) {
    if (!(p >= 0 && p <= 1)) throw std::invalid_argument("p-value outside [0, 1]");
  }
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return p_values[x] < p_values[y]; });
  std::vector<double> q(m);
  double running = 1;
  // From the largest p down, so each q is the minimum over all larger ranks
  // (the step-up rule) and q stays monotone in p.
  for (std::size_t k = m; k-- > 0;) {
    const std::size_t i = order[k];
    running = std::min(running, p_values[i] * static_cast<double>(m) / static_cast<double>(k + 1));
    q[i] = running;
  }
  return q;
}

}  // namespace perfci::stats
