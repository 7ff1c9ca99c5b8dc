#include "perfci/bench/hook_counters.h"

#include <errno.h>
#include <gtest/gtest.h>

#include <map>

namespace perfci {
namespace {

std::map<std::string, HookCounter> by_name(const std::vector<HookCounter>& v) {
  std::map<std::string, HookCounter> m;
  for (const auto& c : v) m[c.name] = c;
  return m;
}

EventReading reading(const std::string& name, EventStatus status, double value, double scale = 1,
                     int error = 0) {
  EventReading r;
  r.name = name;
  r.status = status;
  r.value = value;
  r.raw = static_cast<std::uint64_t>(value / scale);
  r.scale = scale;
  r.error = error;
  return r;
}

TEST(HookCounters, OkEventsArePerIterationAndFailuresNeverLookLikeZero) {
  auto m = by_name(hook_counters({reading("instructions", EventStatus::kUnsupported, 0, 1, ENOENT),
                                  reading("task-clock", EventStatus::kOk, 5000),
                                  reading("cycles", EventStatus::kNoPermission, 0, 1, EACCES),
                                  reading("cache-misses", EventStatus::kNotCounted, 0),
                                  reading("bogus", EventStatus::kUnknown, 0)},
                                 0));
  EXPECT_EQ(m.count("perf.instructions"), 0u);
  EXPECT_EQ(m.at("perf.instructions.unsupported").value, ENOENT);
  EXPECT_EQ(m.at("perf.cycles.no_permission").value, EACCES);
  EXPECT_EQ(m.at("perf.cache-misses.not_counted").value, 1);
  EXPECT_EQ(m.at("perf.bogus.unknown").value, 1);
  EXPECT_EQ(m.at("perf.task-clock").value, 5000);
  EXPECT_TRUE(m.at("perf.task-clock").per_iteration);
  EXPECT_FALSE(m.at("perf.instructions.unsupported").per_iteration);
  EXPECT_EQ(m.count("perf.transactions"), 0u);
}

TEST(HookCounters, MultiplexedEventsCarryTheirScale) {
  auto m = by_name(hook_counters({reading("instructions", EventStatus::kMultiplexed, 4000, 4)}, 0));
  EXPECT_EQ(m.at("perf.instructions").value, 4000);
  EXPECT_EQ(m.at("perf.instructions.scale").value, 4);
}

TEST(HookCounters, TransactionDivisor) {
  auto m = by_name(hook_counters({reading("context-switches", EventStatus::kOk, 30)}, 10));
  EXPECT_DOUBLE_EQ(m.at("perf.context-switches/txn").value, 3.0);
  EXPECT_FALSE(m.at("perf.context-switches/txn").per_iteration);
  EXPECT_DOUBLE_EQ(m.at("perf.transactions").value, 10.0);
  EXPECT_TRUE(m.at("perf.transactions").per_iteration);
}

TEST(HookCounters, RegionsAccumulateAndAFailureSticks) {
  EventReading total = reading("task-clock", EventStatus::kOk, 100);
  accumulate_reading(total, reading("task-clock", EventStatus::kMultiplexed, 300, 3));
  EXPECT_EQ(total.status, EventStatus::kMultiplexed);
  EXPECT_DOUBLE_EQ(total.value, 400);
  EXPECT_DOUBLE_EQ(total.scale, 3);
  accumulate_reading(total, reading("task-clock", EventStatus::kNotCounted, 0));
  EXPECT_EQ(total.status, EventStatus::kNotCounted);
  accumulate_reading(total, reading("task-clock", EventStatus::kOk, 5));
  EXPECT_EQ(total.status, EventStatus::kNotCounted);
}

}  // namespace
}  // namespace perfci
