#include "perfci/stats/wilcoxon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "perfci/stats/normal_distribution.h"

namespace perfci::stats {
namespace {

// 2^62 subsets still fit the 64-bit counts.
constexpr std::size_t kExactLimit = 62;

struct Ranked {
  // Midranks doubled, so that every rank, tied or not, is an integer.
  std::vector<std::uint64_t> rank2;
  std::vector<bool> positive;
  std::size_t zeros = 0;
  bool ties = false;
};

Ranked rank_differences(std::span<const double> d, ZeroMethod zero_method) {
  struct Item {
    double magnitude;
    int sign;
  };
  std::vector<Item> items;
  items.reserve(d.size());
  Ranked out;
  for (double v : d) {
    if (!std::isfinite(v))
      throw std::invalid_argument("signed-rank test of a non-finite difference");
    if (v == 0) {
      ++out.zeros;
      if (zero_method == ZeroMethod::kDrop) continue;
    }
    items.push_back({std::fabs(v), v > 0 ? 1 : (v < 0 ? -1 : 0)});
  }
  std::sort(items.begin(), items.end(),
            [](const Item& x, const Item& y) { return x.magnitude < y.magnitude; });
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i + 1;
    while (j < items.size() && items[j].magnitude == items[i].magnitude) ++j;
    // Positions i+1 .. j share the midrank (i + 1 + j) / 2.
    const std::uint64_t rank2 = i + 1 + j;
    for (std::size_t k = i; k < j; ++k) {
      if (items[k].sign == 0) continue;
      out.rank2.push_back(rank2);
      out.positive.push_back(items[k].sign > 0);
      if (j - i > 1) out.ties = true;
    }
    i = j;
  }
  return out;
}

// Two-sided p from the exact distribution of the doubled W+ when each rank's
// sign is a fair coin.
double exact_p_value(const std::vector<std::uint64_t>& rank2, std::uint64_t w2_plus) {
  std::uint64_t total = 0;
  for (std::uint64_t r : rank2) total += r;
  std::vector<std::uint64_t> count(total + 1, 0);
  count[0] = 1;
  std::uint64_t reach = 0;
  for (std::uint64_t r : rank2) {
    reach += r;
    for (std::uint64_t s = reach; s >= r; --s) count[s] += count[s - r];
  }
  std::uint64_t lower = 0;
  std::uint64_t upper = 0;
  for (std::uint64_t s = 0; s <= total; ++s) {
    if (s <= w2_plus) lower += count[s];
    if (s >= w2_plus) upper += count[s];
  }
  const double all = std::ldexp(1.0, static_cast<int>(rank2.size()));
  return std::min(1.0, 2 * static_cast<double>(std::min(lower, upper)) / all);
}

}  // namespace

WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    const WilcoxonOptions& options) {
  const Ranked ranked = rank_differences(differences, options.zero_method);
  WilcoxonResult r;
  r.n = ranked.rank2.size();
  r.zeros = ranked.zeros;
  r.ties = ranked.ties;
  if (r.n == 0) return r;

  std::uint64_t w2_plus = 0;
  std::uint64_t w2_total = 0;
  double sum_sq = 0;
  for (std::size_t i = 0; i < r.n; ++i) {
    w2_total += ranked.rank2[i];
    if (ranked.positive[i]) w2_plus += ranked.rank2[i];
    const double rank = static_cast<double>(ranked.rank2[i]) / 2;
    sum_sq += rank * rank;
  }
  r.w_plus = static_cast<double>(w2_plus) / 2;
  r.w_minus = static_cast<double>(w2_total - w2_plus) / 2;

  // Under H0 each rank enters W+ with probability 1/2: mean sum(r)/2,
  // variance sum(r^2)/4. With midranks this is the usual tie correction.
  const double mean = static_cast<double>(w2_total) / 4;
  const double sd = std::sqrt(sum_sq / 4);
  const double dev = r.w_plus - mean;
  const double cc = options.continuity_correction ? 0.5 : 0.0;
  if (sd > 0) r.z = std::copysign(std::max(0.0, std::fabs(dev) - cc), dev) / sd;

  if (r.n <= std::min(options.exact_max_n, kExactLimit)) {
    r.exact = true;
    r.p_value = exact_p_value(ranked.rank2, w2_plus);
  } else {
    r.p_value = std::min(1.0, 2 * normal_upper_tail(std::fabs(r.z)));
  }
  return r;
}

double wilcoxon_min_p_value(std::size_t n) {
  if (n == 0) return 1;
  if (n > 1000) return 0;
  return std::min(1.0, std::ldexp(1.0, 1 - static_cast<int>(n)));
}

std::string_view to_string(ZeroMethod method) {
  switch (method) {
    case ZeroMethod::kPratt:
      return "pratt";
    case ZeroMethod::kDrop:
      return "drop";
  }
  return "unknown";
}

}  // namespace perfci::stats
