#include "perfci/baseline/cpu_features.h"

#include <gtest/gtest.h>

namespace perfci::baseline {
namespace {

TEST(CpuFeatures, KeepsTheFeaturesGlibcSelectsRoutinesBy) {
  std::string cpuinfo =
      "processor\t: 0\nflags\t\t: fpu sse2 ssse3 avx2 erms fsrm avx512f hypervisor pti\n"
      "processor\t: 1\nflags\t\t: fpu sse2\n";
  EXPECT_EQ(ifunc_cpu_features(cpuinfo, "x86_64"),
            (std::vector<std::string>{"avx2", "avx512f", "erms", "fsrm", "sse2", "ssse3"}));
  EXPECT_EQ(ifunc_cpu_features("Features\t: fp asimd sve cpuid\n", "aarch64"),
            (std::vector<std::string>{"asimd", "sve"}));
  EXPECT_EQ(ifunc_cpu_features("flags : a b\n", "riscv64"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ifunc_cpu_features("", "x86_64").empty());
}

TEST(CpuFeatures, ThisMachineHasSome) {
  // Every x86_64 has SSE2; elsewhere there may be none worth listing.
  auto features = ifunc_cpu_features();
#if defined(__x86_64__)
  EXPECT_NE(std::find(features.begin(), features.end(), "sse2"), features.end());
#endif
}

}  // namespace
}  // namespace perfci::baseline
