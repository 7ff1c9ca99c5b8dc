#include "perfci/stats/resample_estimator.h"

#include <algorithm>
#include <stdexcept>

namespace perfci::stats {

ResampleEstimator::ResampleEstimator(Estimator estimator, std::span<const double> x)
    : estimator_(estimator) {
  const auto n = static_cast<std::uint32_t>(x.size());
  if (estimator == Estimator::kMedian) {
    terms_.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) terms_.push_back({x[i], i, i});
  } else {
    terms_.reserve(std::size_t{n} * (n + 1) / 2);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = i; j < n; ++j) terms_.push_back({(x[i] + x[j]) / 2, i, j});
  }
  std::sort(terms_.begin(), terms_.end(),
            [](const Term& a, const Term& b) { return a.value < b.value; });
}

double ResampleEstimator::operator()(std::span<const std::uint32_t> counts) const {
  std::uint64_t m = 0;
  for (std::uint32_t c : counts) m += c;
  if (m == 0) throw std::invalid_argument("estimate of an empty resample");
  // How many times each term occurs in the resample's multiset: c_i for a
  // sample; c_i * c_j Walsh averages for i < j, c_i (c_i + 1) / 2 for i == j.
  const bool walsh = estimator_ == Estimator::kHodgesLehmann;
  const std::uint64_t total = walsh ? m * (m + 1) / 2 : m;
  // The median of `total` values averages positions (total-1)/2 and total/2,
  // exactly as median_in_place does.
  const std::uint64_t lower_pos = (total - 1) / 2;
  const std::uint64_t upper_pos = total / 2;
  const std::uint32_t* c = counts.data();
  std::uint64_t seen = 0;
  double lower = 0;
  for (const Term& t : terms_) {
    const std::uint64_t ci = c[t.i];
    const std::uint64_t weight = !walsh ? ci : (t.i == t.j ? ci * (ci + 1) / 2 : ci * c[t.j]);
    if (weight == 0) continue;
    if (seen <= lower_pos && lower_pos < seen + weight) lower = t.value;
    seen += weight;
    if (upper_pos < seen) return lower + (t.value - lower) / 2;
  }
  return lower;  // not reached: the weights sum to total
}

}  // namespace perfci::stats
