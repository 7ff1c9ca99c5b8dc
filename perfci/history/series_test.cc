#include "perfci/history/series.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perfci::history {
namespace {

std::vector<CommitSubject> linear_history(int n) {
  std::vector<CommitSubject> h;
  for (int i = 0; i < n; ++i)
    h.push_back({std::string(40, static_cast<char>('a' + i)), "commit " + std::to_string(i)});
  return h;
}

StoredPoint ir_point(const std::string& commit, double value, const std::string& profile = "p1",
                     const std::string& created = "2026-12-01T00:00:00Z") {
  StoredPoint sp;
  sp.command = "check";
  sp.side = "B";
  sp.commit = commit;
  sp.profile = profile;
  sp.created = created;
  sp.point = {"bm/x", "callgrind", "ir", "instructions/iteration", value, {}, {}, 1, true};
  return sp;
}

TEST(BuildSeriesTest, ADeterministicStepIsPlacedOnItsCommitExactly) {
  const auto h = linear_history(20);
  std::vector<StoredPoint> points;
  // 0.3% more instructions from commit 11 on; 0.1% wobble before stays under the 0.2% threshold.
  for (int i = 0; i < 20; ++i)
    points.push_back(
        ir_point(h[i].commit, (i >= 11 ? 1'003'000.0 : 1'000'000.0) + (i == 4 ? 1000 : 0)));
  const auto series = build_series(points, {}, h, MetricPolicies{}, {});
  ASSERT_EQ(series.size(), 1u);
  const auto& s = series[0];
  EXPECT_TRUE(s.deterministic);
  EXPECT_DOUBLE_EQ(s.threshold, 0.002);
  ASSERT_EQ(s.entries.size(), 20u);
  ASSERT_EQ(s.changes.size(), 1u);
  EXPECT_EQ(s.changes[0].to_commit, h[11].commit);
  EXPECT_EQ(s.changes[0].from_commit, h[10].commit);
  EXPECT_EQ(s.changes[0].commits, 1u);
  EXPECT_EQ(s.changes[0].to_subject, "commit 11");
  EXPECT_NEAR(s.changes[0].point.magnitude, 0.003, 1e-12);
  EXPECT_FALSE(s.changes[0].point.p_value.has_value());
}

TEST(BuildSeriesTest, AGapInTheMeasuredCommitsGivesARange) {
  const auto h = linear_history(10);
  std::vector<StoredPoint> points = {ir_point(h[0].commit, 100), ir_point(h[2].commit, 100),
                                     ir_point(h[7].commit, 110), ir_point(h[9].commit, 110)};
  const auto s = build_series(points, {}, h, MetricPolicies{}, {}).at(0);
  ASSERT_EQ(s.changes.size(), 1u);
  EXPECT_EQ(s.changes[0].from_commit, h[2].commit);
  EXPECT_EQ(s.changes[0].to_commit, h[7].commit);
  EXPECT_EQ(s.changes[0].commits, 5u);
}

TEST(BuildSeriesTest, ProfilesAreNeverMixedAndDirtyOrForeignCommitsAreLeftOut) {
  const auto h = linear_history(6);
  std::vector<StoredPoint> points;
  for (int i = 0; i < 6; ++i) {
    points.push_back(ir_point(h[i].commit, 100, "gcc"));
    points.push_back(ir_point(h[i].commit, 130, "clang"));  // another compiler: its own level
  }
  auto dirty = ir_point(h[3].commit, 500, "gcc", "2027-01-01T00:00:00Z");
  dirty.dirty = true;
  points.push_back(dirty);
  points.push_back(ir_point(std::string(40, 'z'), 900, "gcc"));  // a commit off this history
  const auto series = build_series(points, {}, h, MetricPolicies{}, {});
  ASSERT_EQ(series.size(), 2u);
  for (const auto& s : series) {
    EXPECT_EQ(s.entries.size(), 6u) << s.key.profile;
    EXPECT_TRUE(s.changes.empty()) << s.key.profile;
  }
}

TEST(BuildSeriesTest, TheNewestRunAtACommitReplacesOlderOnesAndBaselinesAndAcceptancesAreMarked) {
  const auto h = linear_history(3);
  std::vector<StoredPoint> points = {ir_point(h[0].commit, 100), ir_point(h[1].commit, 100),
                                     ir_point(h[2].commit, 150, "p1", "2026-12-01T00:00:00Z"),
                                     ir_point(h[2].commit, 100, "p1", "2026-12-02T00:00:00Z")};
  auto baseline = ir_point(h[0].commit, 100);
  baseline.side = "A";
  points.push_back(baseline);
  const std::vector<AcceptedMark> accepted = {{h[1].commit, "bm/x", "callgrind", "ir"},
                                              {h[2].commit, "bm/x", "wall", "real_time_ns"}};
  const auto s = build_series(points, accepted, h, MetricPolicies{}, {}).at(0);
  ASSERT_EQ(s.entries.size(), 3u);
  EXPECT_EQ(s.entries[2].value, 100);
  EXPECT_EQ(s.entries[2].runs, 2);
  EXPECT_TRUE(s.changes.empty());
  EXPECT_TRUE(s.entries[0].baseline);
  EXPECT_FALSE(s.entries[1].baseline);
  EXPECT_TRUE(s.entries[1].accepted);
  EXPECT_FALSE(s.entries[2].accepted);  // accepted for another metric
}

TEST(BuildSeriesTest, ANoisySeriesIsCutByEDivisive) {
  const auto h = linear_history(30);
  std::vector<StoredPoint> points;
  // +-1% alternating noise and a 5% step at commit 17.
  for (int i = 0; i < 30; ++i) {
    StoredPoint sp = ir_point(h[i].commit, (i >= 17 ? 1050.0 : 1000.0) * (i % 2 ? 1.01 : 0.99));
    sp.point.kind = "wall";
    sp.point.metric = "real_time_ns";
    sp.point.deterministic = false;
    sp.point.n = 10;
    points.push_back(sp);
  }
  const auto s = build_series(points, {}, h, MetricPolicies{}, {}).at(0);
  EXPECT_FALSE(s.deterministic);
  ASSERT_EQ(s.changes.size(), 1u);
  EXPECT_EQ(s.changes[0].to_commit, h[17].commit);
  EXPECT_EQ(s.changes[0].method, "e-divisive");
  ASSERT_TRUE(s.changes[0].point.p_value.has_value());
  EXPECT_LE(*s.changes[0].point.p_value, 0.05);
}

// This machine's noise as `perfci aa` measures it: 150 interleaved pairs
// of engine_bench's engine/point_lookup (release, --min-time 0.2, idle 2-core
// VM, 2026-12-02), each value the median of 5 consecutive pairs' B/A ratios,
// in the order they ran: what a commit's wall point is when each run is a
// 5-pair A/B against one reference (pair ratio CV 3.04%, these 1.17%).
constexpr double kAaNoise[30] = {
    0.99719, 1.01060, 0.99683, 1.00624, 0.99526, 0.99521, 1.01397, 0.99169, 1.00794, 1.01443,
    0.98836, 1.00380, 0.99457, 0.99321, 1.01183, 1.00734, 0.99784, 0.99301, 1.02469, 1.03451,
    1.00757, 1.01081, 1.02572, 1.00446, 1.00188, 1.00809, 0.98249, 1.01542, 1.02129, 1.00037};

std::vector<StoredPoint> wall_series(const std::vector<CommitSubject>& h, double step, int at) {
  std::vector<StoredPoint> points;
  for (int i = 0; i < 30; ++i) {
    StoredPoint sp = ir_point(h[static_cast<std::size_t>(i)].commit,
                              800.0 * kAaNoise[i] * (i >= at ? 1 + step : 1.0));
    sp.point.kind = "wall";
    sp.point.metric = "real_time_ns";
    sp.point.deterministic = false;
    sp.point.n = 10;
    sp.hostname = "vm";
    points.push_back(sp);
  }
  return points;
}

// perfci.json's defaults (history.change_points): alpha 0.05, 199 permutations, 1%.
ChangeOptions config_defaults() {
  ChangeOptions o;
  o.e_divisive.alpha = 0.05;
  o.e_divisive.permutations = 199;
  o.e_divisive.min_magnitude = 0.01;
  return o;
}

TEST(BuildSeriesTest, AThreePercentStepInThisMachinesAaNoiseIsFoundAtItsCommit) {
  const auto h = linear_history(30);
  const auto s =
      build_series(wall_series(h, 0.03, 17), {}, h, MetricPolicies{}, config_defaults()).at(0);
  EXPECT_EQ(s.key.machine, " @ vm");
  ASSERT_EQ(s.changes.size(), 1u);
  EXPECT_EQ(s.changes[0].to_commit, h[17].commit);
  EXPECT_EQ(s.changes[0].commits, 1u);
  ASSERT_TRUE(s.changes[0].point.p_value.has_value());
  EXPECT_LE(*s.changes[0].point.p_value, 0.05);
  EXPECT_LE(s.changes[0].point.lo, 0.03);
  EXPECT_GE(s.changes[0].point.hi, 0.03);
}

TEST(BuildSeriesTest, ThirtyCommitsOfThisMachinesAaNoiseHaveNoChangePoint) {
  const auto h = linear_history(30);
  const auto s =
      build_series(wall_series(h, 0, 0), {}, h, MetricPolicies{}, config_defaults()).at(0);
  EXPECT_TRUE(s.changes.empty()) << s.changes.size() << " at " << s.changes.front().to_subject;
}

}  // namespace
}  // namespace perfci::history
