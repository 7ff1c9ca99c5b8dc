#include "perfci/stats/wilcoxon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

// Reference p-value by brute force: rank |d| by counting (midranks), then
// enumerate all 2^m sign assignments of the m nonzero ranks. Shares no code
// with the implementation.
double brute_force_p(const std::vector<double>& d, bool pratt) {
  std::vector<double> pool;
  for (double v : d)
    if (pratt || v != 0) pool.push_back(std::fabs(v));
  std::vector<double> ranks;
  double w_plus = 0;
  for (double v : d) {
    if (v == 0) continue;
    double less = 0;
    double equal = 0;
    for (double u : pool) {
      if (u < std::fabs(v)) ++less;
      if (u == std::fabs(v)) ++equal;
    }
    const double rank = less + (equal + 1) / 2;
    ranks.push_back(rank);
    if (v > 0) w_plus += rank;
  }
  const std::size_t m = ranks.size();
  double lower = 0;
  double upper = 0;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
    double w = 0;
    for (std::size_t i = 0; i < m; ++i)
      if (mask >> i & 1) w += ranks[i];
    if (w <= w_plus + 1e-9) ++lower;
    if (w >= w_plus - 1e-9) ++upper;
  }
  const double all = std::ldexp(1.0, static_cast<int>(m));
  return std::min(1.0, 2 * std::min(lower, upper) / all);
}

// n untied differences 1..n whose negative ones have rank sum w_minus.
std::vector<double> with_negative_rank_sum(int n, int w_minus) {
  std::vector<double> d(static_cast<std::size_t>(n));
  std::iota(d.begin(), d.end(), 1.0);
  for (int r = n; r >= 1 && w_minus > 0; --r) {
    if (r <= w_minus) {
      d[static_cast<std::size_t>(r - 1)] = -r;
      w_minus -= r;
    }
  }
  return d;
}

TEST(WilcoxonTest, AllPositiveSmallSamplesHitTheExactMinimum) {
  const std::vector<double> five = {0.1, 0.2, 0.3, 0.4, 0.5};
  const WilcoxonResult r5 = wilcoxon_signed_rank(five);
  EXPECT_TRUE(r5.exact);
  EXPECT_EQ(r5.n, 5u);
  EXPECT_EQ(r5.w_plus, 15);
  EXPECT_EQ(r5.w_minus, 0);
  EXPECT_DOUBLE_EQ(r5.p_value, 2.0 / 32);

  const std::vector<double> six = {0.6, 0.1, 0.2, 0.3, 0.4, 0.5};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank(six).p_value, 0.03125);
  EXPECT_DOUBLE_EQ(wilcoxon_min_p_value(6), 0.03125);
  EXPECT_DOUBLE_EQ(wilcoxon_min_p_value(1), 1.0);
}

TEST(WilcoxonTest, KnownExactValue) {
  // n = 10, W- = 8: 25 of the 1024 sign patterns have W- <= 8, so
  // p = 50/1024 (R: wilcox.test(...)$p.value = 0.04883).
  const WilcoxonResult r = wilcoxon_signed_rank(with_negative_rank_sum(10, 8));
  EXPECT_EQ(r.w_minus, 8);
  EXPECT_DOUBLE_EQ(r.p_value, 50.0 / 1024);
}

TEST(WilcoxonTest, PublishedCriticalValuesTwoSided05) {
  // Table of critical T (the smaller rank sum) for a two-sided test at 0.05:
  // T <= crit rejects, crit + 1 does not.
  const std::vector<std::pair<int, int>> table = {{6, 0},   {7, 2},   {8, 3},   {9, 5},   {10, 8},
                                                  {11, 10}, {12, 13}, {13, 17}, {14, 21}, {15, 25},
                                                  {16, 29}, {17, 34}, {18, 40}, {19, 46}, {20, 52},
                                                  {21, 58}, {22, 65}, {23, 73}, {24, 81}, {25, 89}};
  for (const auto& [n, crit] : table) {
    EXPECT_LE(wilcoxon_signed_rank(with_negative_rank_sum(n, crit)).p_value, 0.05) << "n=" << n;
    EXPECT_GT(wilcoxon_signed_rank(with_negative_rank_sum(n, crit + 1)).p_value, 0.05) << "n=" << n;
  }
}

TEST(WilcoxonTest, ExactMatchesBruteForceWithTiesAndZeros) {
  const std::vector<std::vector<double>> cases = {
      {0.5, -1.2, 2.0, 3.1, -0.7, 1.5, 2.2, 0.9},      // n = 8, distinct ranks
      {1.0, 1.0, -1.0, 2.0, 2.0, 3.0, -3.0, 4.0},      // ties, midranks
      {0.0, 0.0, 1.0, -2.0, 3.0, 3.0, 4.0, 5.0, 6.0},  // zeros and ties
      {-0.1, -0.2, -0.3, 0.0, -0.5, 0.4, -0.7, -0.8},  // mostly negative
  };
  for (const auto& d : cases) {
    for (ZeroMethod zm : {ZeroMethod::kPratt, ZeroMethod::kDrop}) {
      WilcoxonOptions options;
      options.zero_method = zm;
      const WilcoxonResult r = wilcoxon_signed_rank(d, options);
      EXPECT_TRUE(r.exact);
      EXPECT_NEAR(r.p_value, brute_force_p(d, zm == ZeroMethod::kPratt), 1e-12)
          << "zero method " << to_string(zm) << ", first " << d[0];
    }
  }
}

TEST(WilcoxonTest, ExactMatchesBruteForceOnRandomSamples) {
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>(state >> 59) - 12;  // -12 .. 19: many ties, some zeros
  };
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<double> d(static_cast<std::size_t>(5 + trial % 10));
    for (double& v : d) v = next() / 4.0;
    EXPECT_NEAR(wilcoxon_signed_rank(d).p_value, brute_force_p(d, true), 1e-12);
  }
}

TEST(WilcoxonTest, NormalApproximationAgreesWithExactAt25To30) {
  for (int n = 25; n <= 30; ++n) {
    const int max_w = n * (n + 1) / 2;
    for (int w = max_w / 8; w <= max_w / 2; w += 3) {
      const std::vector<double> d = with_negative_rank_sum(n, w);
      WilcoxonOptions exact;
      exact.exact_max_n = 60;
      WilcoxonOptions normal;
      normal.exact_max_n = 0;
      const WilcoxonResult e = wilcoxon_signed_rank(d, exact);
      const WilcoxonResult a = wilcoxon_signed_rank(d, normal);
      ASSERT_TRUE(e.exact);
      ASSERT_FALSE(a.exact);
      // The approximation is best in the tails, where decisions are made.
      const double tolerance = e.p_value < 0.1 ? 0.002 : 0.01;
      EXPECT_NEAR(a.p_value, e.p_value, tolerance) << "n=" << n << " W-=" << w;
    }
  }
}

TEST(WilcoxonTest, NormalApproximationFollowsTheTextbookFormula) {
  // 40 untied differences, W- = 200: z = (W+ - n(n+1)/4 - 1/2) / sqrt(n(n+1)(2n+1)/24).
  const std::vector<double> d = with_negative_rank_sum(40, 200);
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  EXPECT_FALSE(r.exact);
  const double w_plus = 820 - 200;
  const double z = (w_plus - 410 - 0.5) / std::sqrt(40.0 * 41 * 81 / 24);
  EXPECT_NEAR(r.z, z, 1e-12);
  EXPECT_NEAR(r.p_value, std::erfc(z / std::sqrt(2.0)), 1e-12);
}

TEST(WilcoxonTest, TieCorrectionShrinksTheVariance) {
  // 30 differences in three tied groups of 10: variance is
  // n(n+1)(2n+1)/24 - sum(t^3 - t)/48.
  std::vector<double> d;
  for (int g = 1; g <= 3; ++g)
    for (int i = 0; i < 10; ++i) d.push_back(g * (i < 8 ? 1.0 : -1.0));
  const WilcoxonResult r = wilcoxon_signed_rank(d);
  EXPECT_TRUE(r.ties);
  const double var = 30.0 * 31 * 61 / 24 - 3 * (1000.0 - 10) / 48;
  const double w_plus = r.w_plus;
  EXPECT_NEAR(r.z, (w_plus - 30.0 * 31 / 4 - 0.5) / std::sqrt(var), 1e-12);
}

TEST(WilcoxonTest, ZeroHandlingDiffersAsDocumented) {
  const std::vector<double> d = {0, 0, 0, 1, 2, 3, 4, 5, 6};
  WilcoxonOptions drop;
  drop.zero_method = ZeroMethod::kDrop;
  const WilcoxonResult dropped = wilcoxon_signed_rank(d, drop);
  const WilcoxonResult pratt = wilcoxon_signed_rank(d);
  EXPECT_EQ(dropped.n, 6u);
  EXPECT_EQ(dropped.zeros, 3u);
  EXPECT_EQ(dropped.w_plus, 21);
  EXPECT_EQ(pratt.n, 6u);
  EXPECT_EQ(pratt.w_plus, 4 + 5 + 6 + 7 + 8 + 9);
  EXPECT_DOUBLE_EQ(dropped.p_value, 0.03125);
  // All signs positive is still the most extreme pattern under Pratt.
  EXPECT_DOUBLE_EQ(pratt.p_value, 0.03125);
}

TEST(WilcoxonTest, SymmetricInTheSign) {
  const std::vector<double> d = {0.5, -1.2, 2.0, 3.1, -0.7, 1.5, 2.2, 0.9, 1.1, -0.3};
  std::vector<double> neg;
  for (double v : d) neg.push_back(-v);
  const WilcoxonResult a = wilcoxon_signed_rank(d);
  const WilcoxonResult b = wilcoxon_signed_rank(neg);
  EXPECT_DOUBLE_EQ(a.p_value, b.p_value);
  EXPECT_EQ(a.w_plus, b.w_minus);
  EXPECT_DOUBLE_EQ(a.z, -b.z);
}

TEST(WilcoxonTest, DegenerateInputs) {
  const WilcoxonResult none = wilcoxon_signed_rank({});
  EXPECT_EQ(none.n, 0u);
  EXPECT_EQ(none.p_value, 1.0);
  const std::vector<double> zeros = {0, 0, 0};
  EXPECT_EQ(wilcoxon_signed_rank(zeros).p_value, 1.0);
  const std::vector<double> bad = {1, INFINITY};
  EXPECT_THROW(wilcoxon_signed_rank(bad), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
