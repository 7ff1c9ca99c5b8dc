#include "perfci/stats/change_point.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "perfci/stats/descriptive.h"
#include "perfci/stats/rank_sum.h"

namespace perfci::stats {
namespace {

// A performance metric is a positive amount (time, instructions, bytes): a
// zero, negative or non-finite value is a bug of whoever built the series,
// and a ratio or a logarithm of it would be nonsense.
void check_series(std::span<const double> series, const char* what) {
  for (double v : series)
    if (!(std::isfinite(v) && v > 0))
      throw std::invalid_argument(std::string(what) + ": a value that is not positive and finite");
}

void check_options(const EDivisiveOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1))
    throw std::invalid_argument("e_divisive: alpha outside (0, 1)");
  if (o.permutations < 1) throw std::invalid_argument("e_divisive: needs at least 1 permutation");
  if (o.min_segment < 1) throw std::invalid_argument("e_divisive: min_segment must be >= 1");
  if (!(o.min_magnitude >= 0))
    throw std::invalid_argument("e_divisive: min_magnitude must be >= 0");
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument("e_divisive: confidence outside (0, 1)");
}

// One value of a segment with its rank among the segment's values. The rank
// travels with the value when a permutation moves it, so a permuted
// segment's statistic needs no new sort.
struct Ranked {
  double value;
  std::size_t rank;
};

// Count and sum of the values inserted so far, by rank (a Fenwick tree):
// sum_i |x_i - y| over the inserted x_i in O(log n), which makes one
// statistic over all split points O(n log n) instead of the O(n^2) of a
// distance matrix — the permutation test evaluates it hundreds of times.
class RankSums {
 public:
  explicit RankSums(std::size_t n) : count_(n + 1, 0), sum_(n + 1, 0) {}

  void clear() {
    std::fill(count_.begin(), count_.end(), 0);
    std::fill(sum_.begin(), sum_.end(), 0);
    total_count_ = 0;
    total_sum_ = 0;
  }

  void insert(const Ranked& x) {
    for (std::size_t i = x.rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += x.value;
    }
    ++total_count_;
    total_sum_ += x.value;
  }

  // sum over the inserted x of |x - y|. Equal values contribute 0 on either
  // side, so how ties were ranked does not matter.
  double distance_sum(const Ranked& y) const {
    double below_count = 0;
    double below_sum = 0;
    for (std::size_t i = y.rank + 1; i > 0; i -= i & (~i + 1)) {
      below_count += count_[i];
      below_sum += sum_[i];
    }
    const double above_count = total_count_ - below_count;
    const double above_sum = total_sum_ - below_sum;
    return (y.value * below_count - below_sum) + (above_sum - y.value * above_count);
  }

 private:
  std::vector<double> count_;
  std::vector<double> sum_;
  double total_count_ = 0;
  double total_sum_ = 0;
};

struct Split {
  std::size_t offset = 0;  // within the segment: the first value of the right part
  double q = 0;
};

// The best split of one segment: the tau maximising
//   Q(tau) = m n / (m + n) * E(tau),
//   E = 2/(m n) sum_{i<tau<=j} |x_i - x_j| - C(m,2)^-1 sum_{i<k<tau} |x_i - x_k|
//       - C(n,2)^-1 sum_{tau<=j<k} |x_j - x_k|,
// the energy divergence of the parts (exponent 1) scaled by their sizes,
// over tau with at least min_segment values each side. Ties go to the
// earliest tau, so the answer does not depend on rounding order. None when
// the segment is too short to split.
std::optional<Split> best_split(std::span<const Ranked> x, std::size_t min_segment, RankSums& sums,
                                std::vector<double>& left, std::vector<double>& right) {
  const std::size_t n = x.size();
  if (n < 2 * min_segment) return std::nullopt;
  // left[t] = sum_{i<t} |x_i - x_t|, right[t] = sum_{j>t} |x_j - x_t|.
  left.assign(n, 0);
  right.assign(n, 0);
  sums.clear();
  for (std::size_t t = 0; t < n; ++t) {
    left[t] = sums.distance_sum(x[t]);
    sums.insert(x[t]);
  }
  sums.clear();
  for (std::size_t t = n; t-- > 0;) {
    right[t] = sums.distance_sum(x[t]);
    sums.insert(x[t]);
  }
  double within_left = 0;                                                  // pairs inside [0, tau)
  double within_right = std::accumulate(right.begin(), right.end(), 0.0);  // inside [tau, n)
  const double total = within_right;
  std::optional<Split> best;
  for (std::size_t tau = 1; tau + min_segment <= n; ++tau) {
    within_left += left[tau - 1];
    within_right -= right[tau - 1];
    if (tau < min_segment) continue;
    const double m = static_cast<double>(tau);
    const double k = static_cast<double>(n - tau);
    const double cross = total - within_left - within_right;
    const double e = 2 * cross / (m * k) - (m > 1 ? within_left / (m * (m - 1) / 2) : 0) -
                     (k > 1 ? within_right / (k * (k - 1) / 2) : 0);
    const double q = m * k / (m + k) * e;
    if (!best || q > best->q) best = Split{tau, q};
  }
  return best;
}

// The current segmentation: each segment's values in series order, ranked
// within the segment.
struct Segment {
  std::size_t begin = 0;  // in the series
  std::vector<Ranked> values;
};

Segment make_segment(std::span<const double> series, std::size_t begin, std::size_t end) {
  Segment s;
  s.begin = begin;
  // Centred on the segment's middle value: the statistic only sees
  // differences, and small magnitudes keep the tree's running sums exact to
  // more digits.
  std::vector<std::size_t> order(end - begin);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return series[begin + a] < series[begin + b];
  });
  const double centre = series[begin + order[order.size() / 2]];
  s.values.resize(end - begin);
  for (std::size_t r = 0; r < order.size(); ++r)
    s.values[order[r]] = Ranked{series[begin + order[r]] - centre, r};
  return s;
}

struct Candidate {
  std::size_t segment = 0;  // which one of the segments
  Split split;
};

// The best split over all segments; the earliest segment wins a tie.
std::optional<Candidate> best_candidate(const std::vector<Segment>& segments,
                                        std::size_t min_segment, RankSums& sums,
                                        std::vector<double>& left, std::vector<double>& right) {
  std::optional<Candidate> best;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const std::optional<Split> split =
        best_split(segments[s].values, min_segment, sums, left, right);
    if (split && (!best || split->q > best->split.q)) best = Candidate{s, *split};
  }
  return best;
}

// Fisher–Yates with modulo instead of std::shuffle, whose algorithm the
// standard leaves to each library: the same seed must give the same change
// points with libstdc++ and libc++. The bias (n / 2^64) is nil.
void shuffle(std::vector<Ranked>& x, std::mt19937_64& rng) {
  for (std::size_t i = x.size(); i > 1; --i) std::swap(x[i - 1], x[rng() % i]);
}

// The permutation test of the best split, as Matteson & James and ecp's
// e.divisive (sig.test) run it: the values are permuted within EVERY current
// segment (the segments already found are taken as given) and the statistic
// recomputed as the maximum over all segments, because the observed one was
// also the maximum over all of them; testing only the chosen segment would
// ignore that it was chosen as the best of several and find too many change
// points. p = (#{permuted >= observed} + 1) / (permutations + 1).
double permutation_p_value(const std::vector<Segment>& segments, double observed,
                           const EDivisiveOptions& options, std::mt19937_64& rng, RankSums& sums,
                           std::vector<double>& left, std::vector<double>& right) {
  std::vector<Segment> permuted = segments;
  // A permutation that only swaps equal values, or mirrors a segment, has
  // the same statistic mathematically but may differ in the last bits; it
  // must count as a tie, not as smaller.
  const double tolerance = 1e-12 * std::abs(observed);
  int at_least = 0;
  for (int r = 0; r < options.permutations; ++r) {
    for (Segment& s : permuted) shuffle(s.values, rng);
    const std::optional<Candidate> c =
        best_candidate(permuted, options.min_segment, sums, left, right);
    if (c && c->split.q >= observed - tolerance) ++at_least;
  }
  return static_cast<double>(at_least + 1) / static_cast<double>(options.permutations + 1);
}

}  // namespace

std::vector<ChangePoint> deterministic_steps(std::span<const double> series, double threshold) {
  if (!(threshold >= 0 && std::isfinite(threshold)))
    throw std::invalid_argument("deterministic_steps: threshold must be finite and >= 0");
  check_series(series, "deterministic_steps");
  std::vector<ChangePoint> steps;
  for (std::size_t i = 1; i < series.size(); ++i) {
    // The arithmetic of the check's threshold rule (verdict_by_threshold on
    // ratio - 1, strict), so that the history and a check of the same two
    // commits agree on whether this step is beyond the threshold.
    const double change = series[i] / series[i - 1] - 1;
    if (!(change > threshold || change < -threshold)) continue;
    ChangePoint c;
    c.index = i;
    c.before = series[i - 1];
    c.after = series[i];
    c.magnitude = c.lo = c.hi = change;
    steps.push_back(c);
  }
  return steps;
}

std::vector<ChangePoint> e_divisive(std::span<const double> series,
                                    const EDivisiveOptions& options) {
  check_options(options);
  check_series(series, "e_divisive");
  const std::size_t n = series.size();
  if (n < 2 * options.min_segment) return {};
  RankSums sums(n);
  std::vector<double> left;
  std::vector<double> right;
  std::mt19937_64 rng(options.seed);

  std::vector<Segment> segments;
  segments.push_back(make_segment(series, 0, n));
  struct Found {
    std::size_t index;
    double p_value;
  };
  std::vector<Found> found;
  for (;;) {
    const std::optional<Candidate> best =
        best_candidate(segments, options.min_segment, sums, left, right);
    if (!best) break;
    const double p = permutation_p_value(segments, best->split.q, options, rng, sums, left, right);
    // The first split that is not significant ends the search (the paper's
    // rule): the next-best splits are weaker still.
    if (p > options.alpha) break;
    const Segment& s = segments[best->segment];
    const std::size_t begin = s.begin;
    const std::size_t cut = begin + best->split.offset;
    const std::size_t end = begin + s.values.size();
    found.push_back({cut, p});
    segments[best->segment] = make_segment(series, begin, cut);
    segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(best->segment) + 1,
                    make_segment(series, cut, end));
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.index < b.index; });

  std::vector<ChangePoint> points;
  for (std::size_t k = 0; k < found.size(); ++k) {
    const std::size_t begin = k == 0 ? 0 : found[k - 1].index;
    const std::size_t cut = found[k].index;
    const std::size_t end = k + 1 == found.size() ? n : found[k + 1].index;
    const std::span<const double> before = series.subspan(begin, cut - begin);
    const std::span<const double> after = series.subspan(cut, end - cut);
    ChangePoint c;
    c.index = cut;
    c.before = median(before);
    c.after = median(after);
    // The interval: Hodges–Lehmann's distribution-free interval of the shift
    // of the LOG values, mapped back through exp - 1. Timings change by
    // factors, and a monotone map keeps the interval's coverage, whereas
    // dividing a shift interval by the estimated `before` would ignore that
    // before's own uncertainty. Infinite ends (segments too short for the
    // level) stay infinite: unbounded, not -100%.
    std::vector<double> log_before(before.size());
    std::vector<double> log_after(after.size());
    std::transform(before.begin(), before.end(), log_before.begin(),
                   [](double v) { return std::log(v); });
    std::transform(after.begin(), after.end(), log_after.begin(),
                   [](double v) { return std::log(v); });
    const ShiftEstimate shift = hodges_lehmann_shift(log_before, log_after, options.confidence);
    c.magnitude = std::expm1(shift.estimate);
    // A split below min_magnitude still separates its neighbours' segments
    // (the levels do differ; merging them would blur the neighbours' medians)
    // but is not reported.
    if (std::abs(c.magnitude) < options.min_magnitude) continue;
    c.lo = std::isinf(shift.lo) ? shift.lo : std::expm1(shift.lo);
    c.hi = std::isinf(shift.hi) ? shift.hi : std::expm1(shift.hi);
    c.p_value = found[k].p_value;
    points.push_back(c);
  }
  return points;
}

}  // namespace perfci::stats
