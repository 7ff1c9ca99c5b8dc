#include <errno.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/counters/fake_perf_backend.h"
#include "perfci/counters/pmu_info.h"
#include "perfci/env/build_info.h"
#include "perfci/env/event_probe.h"
#include "perfci/env/fingerprint.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

TEST(Fingerprint, CollectsTheFactsOfThisMachine) {
  auto f = collect_fingerprint();
  EXPECT_GT(f.logical_cpus, 0);
  EXPECT_FALSE(f.kernel.empty());
  // Against sysfs read here by name alone: a core PMU is "cpu", "cpu_*"
  // (hybrid parts) or "armv*" (none on these VMs, some on real hardware).
  bool core_pmu_in_sysfs = false;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/bus/event_source/devices", ec)) {
    const std::string name = e.path().filename().string();
    core_pmu_in_sysfs |= name == "cpu" || name.rfind("cpu_", 0) == 0 || name.rfind("armv", 0) == 0;
  }
  EXPECT_EQ(f.hardware_pmu(), core_pmu_in_sysfs);
  for (const auto& pmu : f.hardware_pmus)
    EXPECT_TRUE(std::filesystem::exists("/sys/bus/event_source/devices/" + pmu + "/type")) << pmu;
  nlohmann::json j = f;
  for (const char* key :
       {"cpu_model", "logical_cpus", "kernel", "hardware_pmu", "perf_event_paranoid", "aslr",
        "cpufreq_governor", "turbo", "load_average", "valgrind", "smt_active"})
    EXPECT_TRUE(j.contains(key)) << key;
}

TEST(EventProbe, ReportsEachEventWithItsStatus) {
  FakePerfBackend fake;
  fake.fail_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, ENOENT);
  fake.fail_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, EACCES);
  fake.set_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 10);
  auto probes = probe_events({"instructions", "task-clock", "cpu-migrations", "nope-event"}, fake);
  ASSERT_EQ(probes.size(), 4u);
  EXPECT_EQ(probes[0].reading.status, EventStatus::kUnsupported);
  EXPECT_NE(probes[0].explanation.find("ENOENT"), std::string::npos);
  EXPECT_EQ(probes[1].reading.status, EventStatus::kOk);
  EXPECT_TRUE(probes[1].software);
  EXPECT_EQ(probes[2].reading.status, EventStatus::kNoPermission);
  EXPECT_NE(probes[2].explanation.find("perf_event_paranoid"), std::string::npos);
  EXPECT_EQ(probes[3].reading.status, EventStatus::kUnknown);
  EXPECT_NE(probes[3].explanation.find("nope-event"), std::string::npos);
  nlohmann::json j = probes[0];
  EXPECT_EQ(j["status"], "unsupported");
  EXPECT_EQ(j["errno"], ENOENT);
}

TEST(EventProbe, SoftwareEventsAreCountedOnThisMachine) {
  auto probes = probe_events({"task-clock", "page-faults"});
  for (const auto& p : probes)
    EXPECT_TRUE(has_value(p.reading.status)) << p.name << ": " << p.explanation;
}

TEST(BuildInfo, ReadsProducerAndBuildIdOfThisBinary) {
  auto info = read_build_info("/proc/self/exe");
  EXPECT_FALSE(info.producer.empty());
  EXPECT_FALSE(info.build_id.empty());
  EXPECT_THROW(read_build_info("/nonexistent"), Error);
}

TEST(BuildInfo, FlavourReadsOptimisationAndSanitizersFromTheProducer) {
  BuildInfo info;
  info.producer = "GNU C++20 12.2.0 -mtune=generic -march=x86-64 -g -O2 -std=c++20";
  BuildFlavour f = build_flavour(info);
  EXPECT_EQ(f.optimization, "-O2");
  EXPECT_EQ(f.optimized, true);
  ASSERT_TRUE(f.sanitizers.has_value());
  EXPECT_TRUE(f.sanitizers->empty());
  EXPECT_EQ(f.assertions, "unknown") << "no __assert_fail is no proof of NDEBUG";

  info.producer = "GNU C++20 12.2.0 -g -O1 -fsanitize=address,undefined -fno-sanitize=undefined";
  info.calls_assert_fail = true;
  f = build_flavour(info);
  EXPECT_EQ(f.optimization, "-O1");
  EXPECT_EQ(f.sanitizers, (std::vector<std::string>{"address"}));
  EXPECT_EQ(f.assertions, "compiled-in");

  // GCC records every option and defaults to -O0.
  info.producer = "GNU C++20 12.2.0 -g";
  EXPECT_EQ(build_flavour(info).optimization, "-O0");
  EXPECT_EQ(build_flavour(info).optimized, false);

  // clang records none: unknown, never guessed.
  info.producer = "Debian clang version 14.0.6";
  f = build_flavour(info);
  EXPECT_TRUE(f.optimization.empty());
  EXPECT_FALSE(f.optimized.has_value());
  EXPECT_FALSE(f.sanitizers.has_value());
  const nlohmann::json j = info;
  EXPECT_TRUE(j.at("optimized").is_null());
  EXPECT_TRUE(j.at("sanitizers").is_null());
}

TEST(BuildInfo, ProvenanceWarningsNameDebugLibrariesAndUnoptimisedBinaries) {
  BuildInfo info;
  info.producer = "GNU C++20 12.2.0 -g -O0 -fsanitize=address";
  const nlohmann::json build = info;
  const auto w = provenance_warnings("A", build, {{"library_build_type", "debug"}});
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].find("A: Google Benchmark's library was built as debug"), std::string::npos);
  EXPECT_NE(w[1].find("A was compiled without optimisation (-O0)"), std::string::npos);
  EXPECT_NE(w[2].find("-fsanitize=address"), std::string::npos);

  info.producer = "GNU C++20 12.2.0 -g -O2";
  EXPECT_TRUE(provenance_warnings("A", info, {{"library_build_type", "release"}}).empty());
  EXPECT_TRUE(provenance_warnings("A", nullptr, nlohmann::json::object()).empty());
}

}  // namespace
}  // namespace perfci
