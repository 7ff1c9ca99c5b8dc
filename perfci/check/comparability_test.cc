#include "perfci/check/comparability.h"

#include <gtest/gtest.h>

#include "perfci/baseline/baseline_fixtures.h"

namespace perfci::check {
namespace {

using baseline::fixtures::sample_profile;

std::string gate(const std::vector<perfci::CheckGate>& gates, const std::string& kind) {
  for (const auto& g : gates)
    if (g.kind == kind) return std::string(stats::to_string(g.gate));
  return "?";
}

TEST(Comparability, SameProfileGatesEverything) {
  auto gates = decide_gates(baseline::compare_profiles(sample_profile(), sample_profile()), {});
  ASSERT_EQ(gates.size(), 3u);
  for (const auto& g : gates) EXPECT_EQ(g.gate, stats::Gate::kGated) << g.kind;
}

TEST(Comparability, AnotherToolchainLeavesEverythingInformation) {
  auto other = sample_profile();
  other.toolchain.compiler = "clang";
  other.toolchain.compiler_version = "14.0.6";
  auto gates = decide_gates(baseline::compare_profiles(sample_profile(), other), {});
  EXPECT_EQ(gate(gates, "callgrind"), "information");
  EXPECT_EQ(gate(gates, "wall"), "information");
  EXPECT_NE(
      gates[0].reason.find("the toolchain differs from the baseline's: compiler gcc -> clang"),
      std::string::npos)
      << gates[0].reason;
}

TEST(Comparability, AnotherMachineKeepsCallgrindGated) {
  auto other = sample_profile();
  other.machine.hostname = "ci-runner";
  other.machine.cpu_model = "Intel Xeon";
  auto gates = decide_gates(baseline::compare_profiles(sample_profile(), other), {});
  EXPECT_EQ(gate(gates, "callgrind"), "gated");
  EXPECT_EQ(gate(gates, "wall"), "information");
  EXPECT_EQ(gate(gates, "counters"), "information");
  EXPECT_NE(gates[1].reason.find("another machine than the baseline's: cpu_model"),
            std::string::npos);
}

TEST(Comparability, InformationOnlyKindsAreNeverGated) {
  auto gates =
      decide_gates(baseline::compare_profiles(sample_profile(), sample_profile()), {"wall"});
  EXPECT_EQ(gate(gates, "callgrind"), "gated");
  EXPECT_EQ(gate(gates, "wall"), "information");
  EXPECT_NE(gates[1].reason.find("check.information_only"), std::string::npos);
}

TEST(Comparability, SettingsThatChangeTheNumbersMustMatch) {
  baseline::SuiteSettings a;
  a.suite = "engine";
  a.args = {"--scale=0.1"};
  a.meters = {"callgrind"};
  a.callgrind_iterations = 3;
  EXPECT_TRUE(settings_mismatches(a, a).empty());
  auto b = a;
  b.filter = "engine/.*";  // selects, does not change a number
  b.meters = {"callgrind", "wall"};
  EXPECT_TRUE(settings_mismatches(a, b).empty());
  b.args = {};
  b.callgrind_iterations = 5;
  auto m = settings_mismatches(a, b);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NE(
      m[0].find("args: the baseline ran the binary with [--scale=0.1], perfci.json now says []"),
      std::string::npos);
  EXPECT_NE(m[1].find("callgrind iterations"), std::string::npos);
  // Without callgrind in this run, its iteration count does not matter.
  b.args = a.args;
  b.meters = {"wall"};
  EXPECT_TRUE(settings_mismatches(a, b).empty());
}

TEST(Comparability, ModesAreComparedPerKind) {
  BenchmarkResult hook, process;
  hook.callgrind = CallgrindResult{};
  process.callgrind = CallgrindResult{};
  process.callgrind->mode = "process";
  CounterResult c;
  c.event = "task-clock";
  c.per_iteration = 1.0;
  hook.counters = {c};
  c.mode = "process";
  process.counters = {c};
  EXPECT_TRUE(mode_mismatches(hook, hook).empty());
  EXPECT_TRUE(mode_mismatches(process, process).empty());
  auto m = mode_mismatches(hook, process);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].kind, "callgrind");
  EXPECT_EQ(m[1].kind, "counters");
  EXPECT_EQ(m[1].why,
            "its counters were opened by the hook (timed region) in the baseline and hook-free "
            "(whole process) here");
  // Unsupported counters have no mode to compare; a side without callgrind neither.
  process.counters[0].per_iteration.reset();
  process.callgrind.reset();
  EXPECT_TRUE(mode_mismatches(hook, process).empty());
}

}  // namespace
}  // namespace perfci::check
