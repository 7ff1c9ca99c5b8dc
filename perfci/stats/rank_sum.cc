#include "perfci/stats/rank_sum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "perfci/stats/descriptive.h"
#include "perfci/stats/normal_distribution.h"

namespace perfci::stats {
namespace {

// SciPy's rule for method="auto": exact below this size of the smaller side.
constexpr std::size_t kExactMaxSmallerSide = 8;
// Beyond this m*n*min(m,n) the exact distribution costs too much for an
// interval; the normal approximation is then excellent anyway.
constexpr double kExactIntervalCost = 2e7;

void check_samples(std::span<const double> a, std::span<const double> b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("rank-sum test of an empty sample");
  for (double v : a)
    if (!std::isfinite(v)) throw std::invalid_argument("rank-sum test of a non-finite value");
  for (double v : b)
    if (!std::isfinite(v)) throw std::invalid_argument("rank-sum test of a non-finite value");
}

// P(U >= u) under the exact null distribution.
double upper_tail(const std::vector<double>& counts, double u) {
  double total = 0;
  double tail = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u) tail += counts[k];
  }
  return tail / total;
}

}  // namespace

std::vector<double> rank_sum_null_counts(std::size_t m, std::size_t n) {
  if (m > n) std::swap(m, n);
  // [m+n choose m]_q = prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k); after each
  // factor the polynomial is [n+k choose k]_q, whose coefficients are counts.
  std::vector<double> c(m * n + 1, 0.0);
  c[0] = 1;
  std::size_t degree = 0;
  for (std::size_t k = 1; k <= m; ++k) {
    const std::size_t up = n + k;
    const std::size_t next = degree + n;
    for (std::size_t u = next; u >= up; --u) c[u] -= c[u - up];  // times (1 - q^(n+k))
    for (std::size_t u = k; u <= next; ++u) c[u] += c[u - k];    // divided by (1 - q^k)
    degree = next;
  }
  return c;
}

double rank_sum_min_p_value(std::size_t n_a, std::size_t n_b) {
  // 2 / C(m+n, m), computed as a product so it cannot overflow.
  const std::size_t m = std::min(n_a, n_b);
  const std::size_t n = std::max(n_a, n_b);
  double inv = 1;
  for (std::size_t k = 1; k <= m; ++k) inv *= static_cast<double>(k) / static_cast<double>(n + k);
  return std::min(1.0, 2 * inv);
}

RankSumResult rank_sum_test(std::span<const double> a, std::span<const double> b) {
  check_samples(a, b);
  struct Item {
    double value;
    bool from_b;
  };
  std::vector<Item> items;
  items.reserve(a.size() + b.size());
  for (double v : a) items.push_back({v, false});
  for (double v : b) items.push_back({v, true});
  std::sort(items.begin(), items.end(),
            [](const Item& x, const Item& y) { return x.value < y.value; });

  RankSumResult r;
  r.n_a = a.size();
  r.n_b = b.size();
  const double m = static_cast<double>(r.n_a);
  const double n = static_cast<double>(r.n_b);
  const double total = m + n;
  double rank_sum_b = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of ties
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i + 1;
    while (j < items.size() && items[j].value == items[i].value) ++j;
    const double midrank = static_cast<double>(i + 1 + j) / 2;
    const double t = static_cast<double>(j - i);
    if (j - i > 1) {
      r.ties = true;
      tie_term += t * t * t - t;
    }
    for (std::size_t k = i; k < j; ++k)
      if (items[k].from_b) rank_sum_b += midrank;
    i = j;
  }
  r.u_b = rank_sum_b - n * (n + 1) / 2;
  // Two-sided: the larger of U_b and U_a = m*n - U_b, doubled tail.
  const double u_max = std::max(r.u_b, m * n - r.u_b);
  const double mu = m * n / 2;
  const double sigma = std::sqrt(m * n / 12 * ((total + 1) - tie_term / (total * (total - 1))));
  if (sigma > 0) r.z = (r.u_b - mu + (r.u_b > mu ? -0.5 : (r.u_b < mu ? 0.5 : 0))) / sigma;

  if (!r.ties && std::min(r.n_a, r.n_b) <= kExactMaxSmallerSide) {
    r.exact = true;
    r.p_value = std::min(1.0, 2 * upper_tail(rank_sum_null_counts(r.n_a, r.n_b), u_max));
  } else if (sigma > 0) {
    r.p_value = std::min(1.0, 2 * normal_upper_tail((u_max - mu - 0.5) / sigma));
  } else {
    r.p_value = 1;  // every value tied: nothing to tell the sides apart
  }
  return r;
}

ShiftEstimate hodges_lehmann_shift(std::span<const double> a, std::span<const double> b,
                                   double confidence) {
  check_samples(a, b);
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("shift interval confidence must lie in (0, 1)");
  std::vector<double> d;
  d.reserve(a.size() * b.size());
  for (double y : b)
    for (double x : a) d.push_back(y - x);
  std::sort(d.begin(), d.end());
  ShiftEstimate s;
  s.level = confidence;
  s.estimate = quantile_sorted(d, 0.5);

  // k: the largest count with P(U <= k - 1) <= alpha/2; the interval is
  // [d_(k), d_(mn+1-k)] (1-based). k = 0 means no interval at this level.
  const double alpha = 1 - confidence;
  const std::size_t mn = d.size();
  std::size_t k = 0;
  const double m = static_cast<double>(a.size());
  const double n = static_cast<double>(b.size());
  if (m * n * std::min(m, n) <= kExactIntervalCost) {
    const std::vector<double> counts = rank_sum_null_counts(a.size(), b.size());
    double all = 0;
    for (double c : counts) all += c;
    double below = 0;  // P(U <= k - 1) * all
    while (k < counts.size() && (below + counts[k]) / all <= alpha / 2) below += counts[k++];
  } else {
    const double lower =
        m * n / 2 - normal_quantile(1 - alpha / 2) * std::sqrt(m * n * (m + n + 1) / 12);
    k = lower > 0 ? static_cast<std::size_t>(std::floor(lower)) : 0;
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (k == 0 || k > mn - k + 1) {
    s.lo = -kInf;
    s.hi = kInf;
  } else {
    s.lo = d[k - 1];
    s.hi = d[mn - k];
  }
  return s;
}

}  // namespace perfci::stats
