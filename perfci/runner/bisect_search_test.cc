#include "perfci/runner/bisect_search.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

namespace perfci {
namespace {

// Candidates first_bad..n-1 are bad (first_bad == n: none is), those in
// `skipped` cannot be measured; counts the probes and refuses a repeat.
struct FakeOracle {
  std::size_t first_bad;
  std::set<std::size_t> skipped;
  std::set<std::size_t> undecided;
  std::set<std::size_t> seen;

  BisectStep operator()(std::size_t i) {
    EXPECT_TRUE(seen.insert(i).second) << "candidate " << i << " probed twice";
    if (skipped.count(i)) return BisectStep::kSkip;
    if (undecided.count(i)) return BisectStep::kUndecided;
    return i >= first_bad ? BisectStep::kBad : BisectStep::kGood;
  }
};

BisectSearchResult search(std::size_t n, FakeOracle& oracle) {
  return bisect_search(n, [&oracle](std::size_t i) { return oracle(i); });
}

bool probed(const BisectSearchResult& r, std::size_t i) {
  for (const auto& p : r.probes)
    if (p.index == i) return true;
  return false;
}

TEST(MaxBisectProbes, IsCeilLog2OfTheAnswers) {
  EXPECT_EQ(max_bisect_probes(1), 1u);   // BAD or none
  EXPECT_EQ(max_bisect_probes(2), 2u);   // 3 answers
  EXPECT_EQ(max_bisect_probes(3), 2u);   // 4 answers
  EXPECT_EQ(max_bisect_probes(15), 4u);  // GOOD..BAD of 16 commits: 4 probes + GOOD
  EXPECT_EQ(max_bisect_probes(16), 5u);
}

TEST(BisectSearch, NamesEveryFirstBadWithinTheBound) {
  for (std::size_t n = 1; n <= 70; ++n) {
    for (std::size_t first_bad = 0; first_bad <= n; ++first_bad) {
      FakeOracle oracle{first_bad, {}, {}, {}};
      auto r = search(n, oracle);
      SCOPED_TRACE("n=" + std::to_string(n) + " first_bad=" + std::to_string(first_bad));
      if (first_bad == n) {
        EXPECT_EQ(r.outcome, BisectOutcome::kNoRegression);
      } else {
        ASSERT_EQ(r.outcome, BisectOutcome::kFound);
        EXPECT_EQ(r.first_bad, first_bad);
      }
      EXPECT_LE(r.probes.size(), max_bisect_probes(n));
      // BAD is never named, nor cleared, unmeasured.
      if (first_bad >= n - 1) {
        EXPECT_TRUE(probed(r, n - 1));
      }
    }
  }
}

TEST(BisectSearch, FirstProbeIsTheMiddle) {
  FakeOracle oracle{7, {}, {}, {}};
  auto r = search(15, oracle);
  ASSERT_FALSE(r.probes.empty());
  EXPECT_EQ(r.probes[0].index, 7u);
  EXPECT_EQ(r.probes[0].step, BisectStep::kBad);
}

TEST(BisectSearch, ASkippedMiddleIsReplacedByANeighbour) {
  FakeOracle oracle{9, {7}, {}, {}};
  auto r = search(15, oracle);
  ASSERT_EQ(r.outcome, BisectOutcome::kFound);
  EXPECT_EQ(r.first_bad, 9u);
  ASSERT_GE(r.probes.size(), 2u);
  EXPECT_EQ(r.probes[0].step, BisectStep::kSkip);
  EXPECT_EQ(r.probes[1].index, 8u);
}

TEST(BisectSearch, SkipsNextToTheCulpritLeaveARange) {
  // 5 and 6 cannot be built; 4 is good, 7 bad: the first bad is 5, 6 or 7.
  FakeOracle oracle{6, {5, 6}, {}, {}};
  auto r = search(15, oracle);
  ASSERT_EQ(r.outcome, BisectOutcome::kSkippedRange);
  EXPECT_EQ(r.lo, 5u);
  EXPECT_EQ(r.hi, 7u);
  EXPECT_FALSE(r.may_be_none);
}

TEST(BisectSearch, AnUnbuildableBadMayBeNone) {
  FakeOracle oracle{4, {3}, {}, {}};  // none regressed, BAD (3) does not build
  auto r = search(4, oracle);
  ASSERT_EQ(r.outcome, BisectOutcome::kSkippedRange);
  EXPECT_EQ(r.lo, 3u);
  EXPECT_EQ(r.hi, 3u);
  EXPECT_TRUE(r.may_be_none);
}

TEST(BisectSearch, AnUndecidedStepStopsWithTheOpenRange) {
  FakeOracle oracle{2, {}, {3}, {}};  // probes 7 (bad), then 3 (undecided)
  auto r = search(15, oracle);
  ASSERT_EQ(r.outcome, BisectOutcome::kUndecided);
  EXPECT_EQ(r.lo, 0u);
  EXPECT_EQ(r.hi, 7u);
  EXPECT_FALSE(r.may_be_none);
  EXPECT_EQ(r.probes.back().index, 3u);
}

TEST(BisectSearch, RandomSkipsNeverMisnameTheCulprit) {
  std::mt19937 rng(16);
  for (int round = 0; round < 3000; ++round) {
    std::size_t n = 1 + rng() % 40;
    FakeOracle oracle{rng() % (n + 1), {}, {}, {}};
    for (std::size_t i = 0; i < n; ++i)
      if (rng() % 4 == 0) oracle.skipped.insert(i);
    auto r = search(n, oracle);
    SCOPED_TRACE("round " + std::to_string(round));
    switch (r.outcome) {
      case BisectOutcome::kFound:
        EXPECT_EQ(r.first_bad, oracle.first_bad);
        EXPECT_FALSE(oracle.skipped.count(r.first_bad));
        break;
      case BisectOutcome::kNoRegression:
        EXPECT_EQ(oracle.first_bad, n);
        break;
      case BisectOutcome::kSkippedRange: {
        // The truth is inside, and only skipped candidates are left to try.
        bool inside = oracle.first_bad == n ? r.may_be_none
                                            : r.lo <= oracle.first_bad && oracle.first_bad <= r.hi;
        EXPECT_TRUE(inside) << r.lo << ".." << r.hi << " first_bad " << oracle.first_bad;
        std::size_t end = r.may_be_none ? r.hi + 1 : r.hi;
        for (std::size_t i = r.lo; i < end; ++i) EXPECT_TRUE(oracle.skipped.count(i)) << i;
        break;
      }
      case BisectOutcome::kUndecided:
        ADD_FAILURE() << "no undecided step was injected";
    }
    EXPECT_LE(r.probes.size(), n);
  }
}

TEST(BisectSearch, RefusesAnEmptyRange) {
  EXPECT_THROW(bisect_search(0, [](std::size_t) { return BisectStep::kGood; }),
               std::invalid_argument);
}

}  // namespace
}  // namespace perfci
