#include "perfci/baseline/valgrind_view.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/baseline/linked_libraries.h"
#include "perfci/baseline/profile.h"
#include "perfci/util/error.h"

namespace perfci::baseline {
namespace {

// Lines as glibc 2.36's ld.so --list-diagnostics prints them under valgrind
// 3.19 on an AVX-512 host (trimmed).
const char* kDiagnostics = R"(dl_dst_lib="lib/x86_64-linux-gnu"
dl_hwcap=0x2
dl_hwcap2=0x0
dl_hwcaps_subdirs="x86-64-v4:x86-64-v3:x86-64-v2"
dl_hwcaps_subdirs_active=0x6
dl_pagesize=0x1000
dl_platform="haswell"
env[0x0]="PATH=/usr/bin"
env[0x1]="GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2_Usable"
uname.nodename="vm"
auxv[0x0].a_val=0x7fa652e9c000
x86.cpu_features.basic.model=0x3c
x86.cpu_features.features[0x0].cpuid[0x0]=0xb00f21
x86.cpu_features.features[0x0].active[0x2]=0x7ed83203
x86.cpu_features.preferred.Prefer_No_AVX512=0x1
x86.cpu_features.isa_1=0x7
x86.cpu_features.non_temporal_threshold=0x200000
)";

TEST(ValgrindView, KeepsWhatSelectsCodeAndDropsWhatVaries) {
  auto facts = parse_loader_diagnostics(kDiagnostics);
  EXPECT_EQ(facts.at("dl_hwcap"), "0x2");
  EXPECT_EQ(facts.at("dl_hwcaps_subdirs_active"), "0x6");
  EXPECT_EQ(facts.at("dl_platform"), "haswell");
  EXPECT_EQ(facts.at("x86.cpu_features.features[0x0].active[0x2]"), "0x7ed83203");
  EXPECT_EQ(facts.at("x86.cpu_features.preferred.Prefer_No_AVX512"), "0x1");
  EXPECT_EQ(facts.at("x86.cpu_features.isa_1"), "0x7");
  EXPECT_EQ(facts.at("x86.cpu_features.non_temporal_threshold"), "0x200000");
  EXPECT_EQ(facts.at("env GLIBC_TUNABLES"), "glibc.cpu.hwcaps=-AVX2_Usable");
  // Raw cpuid words, auxv, uname, PATH and the loader's paths vary without
  // changing what runs.
  for (const char* gone :
       {"x86.cpu_features.features[0x0].cpuid[0x0]", "auxv[0x0].a_val", "uname.nodename",
        "env PATH", "dl_dst_lib", "dl_pagesize", "dl_hwcaps_subdirs"})
    EXPECT_EQ(facts.count(gone), 0u) << gone;
  EXPECT_EQ(facts.size(), 10u);
}

TEST(ValgrindView, HostFeaturesAreAMachineFactAndTheViewIsAToolchainFact) {
  Profile base;
  base.toolchain.compiler = "gcc";
  base.toolchain.cpu_features = {"avx2", "avx512f", "sse2"};
  base.toolchain.valgrind_view.facts = parse_loader_diagnostics(kDiagnostics);
  Profile here = base;
  here.toolchain.cpu_features = {"avx2", "sse2"};  // a runner without AVX-512
  ProfileComparison same_view = compare_profiles(base, here);
  EXPECT_TRUE(same_view.toolchain_matches());
  ASSERT_EQ(same_view.machine.size(), 1u);
  EXPECT_EQ(same_view.machine[0].fact, "cpu_features (host)");

  here.toolchain.valgrind_view.facts["x86.cpu_features.isa_1"] = "0x3";
  ProfileComparison other_view = compare_profiles(base, here);
  ASSERT_EQ(other_view.toolchain.size(), 1u);
  EXPECT_EQ(other_view.toolchain[0].fact, "valgrind view x86.cpu_features.isa_1");
  EXPECT_EQ(other_view.toolchain[0].baseline, "0x7");
  EXPECT_EQ(other_view.toolchain[0].current, "0x3");
}

TEST(ValgrindView, AnUnknownViewNeverMatchesNotEvenItself) {
  Profile old_baseline;
  old_baseline.toolchain.valgrind_view.error = "not recorded";
  ProfileComparison c = compare_profiles(old_baseline, old_baseline);
  ASSERT_EQ(c.toolchain.size(), 1u);
  EXPECT_EQ(c.toolchain[0].fact, "valgrind view");
}

TEST(ValgrindView, TheViewRoundTripsThroughJsonAndOldBaselinesReadAsUnknown) {
  Profile p = fixtures::sample_profile();
  p.toolchain.valgrind_view.facts = parse_loader_diagnostics(kDiagnostics);
  nlohmann::json j = p;
  EXPECT_EQ(profile_from_json(j, "p").toolchain.valgrind_view, p.toolchain.valgrind_view);
  j["toolchain"].erase("valgrind_view");
  ValgrindView old = profile_from_json(j, "p").toolchain.valgrind_view;
  EXPECT_FALSE(old.known());
  EXPECT_NE(old.error.find("not recorded"), std::string::npos);
  j["toolchain"]["valgrind_view"] = {{"facts", {{"dl_hwcap", 2}}}};
  EXPECT_THROW(profile_from_json(j, "p"), Error);
}

// The real probe on this machine: valgrind is a declared dependency, and
// this process's own loader has --list-diagnostics (glibc 2.36).
TEST(ValgrindView, TheProbeReadsThisMachinesViewTheSameTwice) {
  const std::string loader = dynamic_loader("/proc/self/exe");
  ASSERT_FALSE(loader.empty());
  ValgrindView a = probe_valgrind_view(loader);
  ASSERT_TRUE(a.known()) << a.error;
  EXPECT_EQ(a, probe_valgrind_view(loader));
  ValgrindView none = probe_valgrind_view(loader, "/nonexistent/valgrind");
  EXPECT_FALSE(none.known());
  EXPECT_FALSE(none.error.empty());
}

}  // namespace
}  // namespace perfci::baseline
