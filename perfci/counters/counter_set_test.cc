#include "perfci/counters/counter_set.h"

#include <errno.h>
#include <gtest/gtest.h>

#include "perfci/counters/event_resolver.h"
#include "perfci/counters/fake_perf_backend.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

std::vector<ResolvedEvent> resolve(std::initializer_list<const char*> names) {
  std::vector<ResolvedEvent> out;
  for (const char* n : names) out.push_back(resolve_event(n));
  return out;
}

const EventReading& find(const std::vector<EventReading>& rs, const std::string& name) {
  for (const auto& r : rs)
    if (r.name == name) return r;
  throw std::runtime_error("no reading for " + name);
}

TEST(EventResolver, ResolvesPerfNamesThroughLibpfm) {
  auto ev = resolve_event("instructions");
  EXPECT_EQ(ev.attr.type, PERF_TYPE_HARDWARE);
  EXPECT_EQ(ev.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
  EXPECT_EQ(ev.attr.exclude_kernel, 1u) << "hardware events are user-only by default";
  auto sw = resolve_event("task-clock");
  EXPECT_TRUE(sw.is_software());
  EXPECT_EQ(sw.attr.config, PERF_COUNT_SW_TASK_CLOCK);
  EXPECT_NE(sw.canonical.find("PERF_COUNT_SW_TASK_CLOCK"), std::string::npos);
}

TEST(EventResolver, UnknownNameIsAClearErrorNamingIt) {
  try {
    resolve_event("no-such-event-xyz");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown event 'no-such-event-xyz'"), std::string::npos)
        << e.what();
  }
  std::string error;
  EXPECT_FALSE(try_resolve_event("", &error));
  EXPECT_FALSE(error.empty());
}

TEST(CounterSet, GroupsHardwareAndSoftwareSeparately) {
  FakePerfBackend fake;
  CounterSet set(fake, resolve({"instructions", "task-clock", "cycles", "page-faults"}));
  set.open();
  ASSERT_EQ(fake.opens().size(), 4u);
  // instructions leads the hardware group; cycles joins it.
  EXPECT_EQ(fake.opens()[0].group_fd, -1);
  EXPECT_EQ(fake.opens()[1].attr.config, PERF_COUNT_HW_CPU_CYCLES);
  EXPECT_EQ(fake.opens()[1].group_fd, fake.opens()[0].result);
  EXPECT_EQ(fake.opens()[2].group_fd, -1);
  EXPECT_EQ(fake.opens()[3].group_fd, fake.opens()[2].result);
  EXPECT_EQ(fake.opens()[0].attr.read_format, kGroupReadFormat);
  EXPECT_EQ(fake.opens()[0].attr.disabled, 1u);
  EXPECT_EQ(fake.opens()[1].attr.disabled, 0u);
}

TEST(CounterSet, ScalesMultiplexedCountsAndReportsTheFactor) {
  FakePerfBackend fake;
  fake.set_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000);
  fake.set_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 300);
  fake.set_times(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 400, 100);
  CounterSet set(fake, resolve({"instructions", "cycles"}));
  set.start();
  set.stop();
  auto rs = set.read();
  const auto& ins = find(rs, "instructions");
  EXPECT_EQ(ins.status, EventStatus::kMultiplexed);
  EXPECT_DOUBLE_EQ(ins.scale, 4.0);
  EXPECT_DOUBLE_EQ(ins.value, 4000.0);
  EXPECT_EQ(ins.raw, 1000u);
  EXPECT_DOUBLE_EQ(find(rs, "cycles").value, 1200.0);
  EXPECT_EQ(fake.enables(), 1);
  EXPECT_EQ(fake.disables(), 1);
}

TEST(CounterSet, FullyScheduledGroupIsOkAndUnscaled) {
  FakePerfBackend fake;
  fake.set_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 5000);
  fake.set_times(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 700, 700);
  CounterSet set(fake, resolve({"task-clock"}));
  set.start();
  auto r = set.read().at(0);
  EXPECT_EQ(r.status, EventStatus::kOk);
  EXPECT_DOUBLE_EQ(r.scale, 1.0);
  EXPECT_DOUBLE_EQ(r.value, 5000.0);
}

TEST(CounterSet, NeverScheduledGroupIsNotCounted) {
  FakePerfBackend fake;
  fake.set_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
  fake.set_times(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 500, 0);
  CounterSet set(fake, resolve({"instructions"}));
  set.start();
  EXPECT_EQ(set.read().at(0).status, EventStatus::kNotCounted);
}

TEST(CounterSet, UnsupportedLeaderHandsTheGroupToTheNextEvent) {
  FakePerfBackend fake;
  fake.fail_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, ENOENT);
  fake.set_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 42);
  CounterSet set(fake, resolve({"instructions", "cycles", "branch-misses"}));
  set.start();
  auto rs = set.read();
  EXPECT_EQ(find(rs, "instructions").status, EventStatus::kUnsupported);
  EXPECT_EQ(find(rs, "instructions").error, ENOENT);
  EXPECT_EQ(find(rs, "cycles").status, EventStatus::kOk);
  EXPECT_DOUBLE_EQ(find(rs, "cycles").value, 42.0);
  EXPECT_EQ(find(rs, "branch-misses").status, EventStatus::kOk);
  // cycles became the leader, branch-misses joined it.
  EXPECT_EQ(fake.opens()[1].group_fd, -1);
  EXPECT_EQ(fake.opens()[2].group_fd, fake.opens()[1].result);
}

TEST(CounterSet, WholeHardwareGroupUnsupportedLeavesSoftwareCounting) {
  // The development VMs: no PMU, so every hardware event fails with ENOENT.
  FakePerfBackend fake;
  for (auto c : {PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES})
    fake.fail_open(PERF_TYPE_HARDWARE, c, ENOENT);
  fake.fail_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, EACCES);
  fake.set_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 10);
  fake.set_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 3);
  CounterSet set(
      fake, resolve({"instructions", "cycles", "task-clock", "cpu-migrations", "page-faults"}));
  set.add_unknown("bogus", "unknown event 'bogus'");
  set.start();
  set.stop();
  auto rs = set.read();
  ASSERT_EQ(rs.size(), 6u);
  EXPECT_EQ(find(rs, "instructions").status, EventStatus::kUnsupported);
  EXPECT_EQ(find(rs, "cycles").status, EventStatus::kUnsupported);
  EXPECT_EQ(find(rs, "cpu-migrations").status, EventStatus::kNoPermission);
  EXPECT_EQ(find(rs, "cpu-migrations").error, EACCES);
  EXPECT_EQ(find(rs, "task-clock").status, EventStatus::kOk);
  EXPECT_DOUBLE_EQ(find(rs, "task-clock").value, 10.0);
  EXPECT_DOUBLE_EQ(find(rs, "page-faults").value, 3.0);
  EXPECT_EQ(find(rs, "bogus").status, EventStatus::kUnknown);
  EXPECT_FALSE(has_value(find(rs, "instructions").status));
}

TEST(CounterSet, SplitsLargeHardwareSetsIntoGroups) {
  FakePerfBackend fake;
  CounterSet set(fake,
                 resolve({"instructions", "cycles", "branch-misses", "cache-misses", "branches"}),
                 CounterSetOptions{.max_hardware_group = 2});
  set.open();
  int leaders = 0;
  for (const auto& o : fake.opens()) leaders += o.group_fd < 0;
  EXPECT_EQ(leaders, 3);
}

TEST(CounterSet, ClosesEverythingOnDestruction) {
  FakePerfBackend fake;
  {
    CounterSet set(fake, resolve({"instructions", "task-clock"}));
    set.open();
    EXPECT_EQ(fake.open_fds(), 2);
  }
  EXPECT_EQ(fake.open_fds(), 0);
}

TEST(CounterSet, RealSoftwareEventsCountOnThisMachine) {
  CounterSet set(syscall_perf_backend(), resolve({"task-clock", "page-faults"}));
  set.start();
  volatile double x = 0;
  for (int i = 0; i < 200000; ++i) x = x + i * 0.5;
  set.stop();
  auto rs = set.read();
  // Software events need no PMU: they count on every supported machine.
  ASSERT_TRUE(has_value(rs[0].status)) << to_string(rs[0].status) << " errno " << rs[0].error;
  EXPECT_GT(rs[0].value, 0.0);
}

}  // namespace
}  // namespace perfci
