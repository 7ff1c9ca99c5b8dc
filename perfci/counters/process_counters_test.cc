#include "perfci/counters/process_counters.h"

#include <errno.h>
#include <gtest/gtest.h>

#include "perfci/counters/event_resolver.h"
#include "perfci/counters/fake_perf_backend.h"

namespace perfci {
namespace {

std::vector<ResolvedEvent> resolve(std::initializer_list<const char*> names) {
  std::vector<ResolvedEvent> out;
  for (const char* n : names) out.push_back(resolve_event(n));
  return out;
}

// Every event on the child's pid, disabled until exec, inherited by its
// threads, alone (no group: the kernel cannot read an inherited group).
TEST(ProcessCounters, OpensEachEventOnThePidEnabledOnExecAndInherited) {
  FakePerfBackend fake;
  ProcessCounters pc(fake, resolve({"instructions", "task-clock"}));
  pc.open(4242);
  ASSERT_EQ(fake.opens().size(), 2u);
  for (const auto& call : fake.opens()) {
    EXPECT_EQ(call.pid, 4242);
    EXPECT_EQ(call.group_fd, -1);
    EXPECT_EQ(call.attr.disabled, 1u);
    EXPECT_EQ(call.attr.enable_on_exec, 1u);
    EXPECT_EQ(call.attr.inherit, 1u);
    EXPECT_EQ(call.attr.read_format & PERF_FORMAT_GROUP, 0u);
  }
}

// The VM's case: the hardware event is ENOENT and says unsupported, with no
// value; the software event still counts.
TEST(ProcessCounters, AnUnsupportedHardwareEventHasNoValueAndTheOthersCount) {
  FakePerfBackend fake;
  fake.fail_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, ENOENT);
  fake.set_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 123456);
  ProcessCounters pc(fake, resolve({"instructions", "task-clock"}));
  pc.open(7);
  auto rs = pc.read();
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].name, "instructions");
  EXPECT_EQ(rs[0].status, EventStatus::kUnsupported);
  EXPECT_EQ(rs[0].error, ENOENT);
  EXPECT_FALSE(has_value(rs[0].status));
  EXPECT_EQ(rs[1].status, EventStatus::kOk);
  EXPECT_EQ(rs[1].value, 123456);
}

// Hardware counters shared with other work are scaled; one never scheduled
// is "not counted", not zero; permission and unknown names keep their
// statuses.
TEST(ProcessCounters, MultiplexedIsScaledNeverScheduledIsNotCounted) {
  FakePerfBackend fake;
  fake.set_count(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000);
  fake.set_times(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 400, 100);
  fake.set_times(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 400, 0);
  fake.fail_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, EACCES);
  ProcessCounters pc(fake, resolve({"instructions", "cycles", "branch-misses"}));
  pc.add_unknown("bogus", "event not found");
  pc.open(9);
  auto rs = pc.read();
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].status, EventStatus::kMultiplexed);
  EXPECT_DOUBLE_EQ(rs[0].scale, 4.0);
  EXPECT_DOUBLE_EQ(rs[0].value, 4000.0);
  EXPECT_EQ(rs[1].status, EventStatus::kNotCounted);
  EXPECT_EQ(rs[2].status, EventStatus::kNoPermission);
  EXPECT_EQ(rs[3].name, "bogus");
  EXPECT_EQ(rs[3].status, EventStatus::kUnknown);
}

}  // namespace
}  // namespace perfci
