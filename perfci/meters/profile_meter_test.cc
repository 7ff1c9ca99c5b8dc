#include "perfci/meters/profile_meter.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci_profile_fixture {
__attribute__((noinline)) int hot_function(int x) {
  asm volatile("" : "+r"(x));
  return x + 1;
}
}  // namespace perfci_profile_fixture

namespace perfci {
namespace {

TEST(ProfileMeter, SymbolizesSampledAddressesWithTheProcessMap) {
  auto ip = reinterpret_cast<std::uint64_t>(&perfci_profile_fixture::hot_function) + 1;
  nlohmann::json report = {{"period_ns", 250000},
                           {"samples", 4},
                           {"lost", 0},
                           {"ips", {{ip, 3}, {8, 1}}},
                           {"maps", read_file("/proc/self/maps")}};
  auto p = symbolize_hook_profile(report, 10);
  EXPECT_EQ(p.source, "cpu-clock");
  EXPECT_EQ(p.samples, 4u);
  ASSERT_EQ(p.symbols.size(), 2u);
  EXPECT_EQ(p.symbols[0].symbol, "perfci_profile_fixture::hot_function(int)");
  EXPECT_EQ(p.symbols[0].samples, 3u);
  EXPECT_DOUBLE_EQ(p.symbols[0].share, 0.75);
  EXPECT_EQ(p.symbols[1].symbol, "[unknown]");
}

TEST(ProfileMeter, MalformedReportIsAnError) {
  auto error_of = [](const nlohmann::json& report) -> std::string {
    try {
      symbolize_hook_profile(report, 10);
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error_of({{"ips", 3}}), "the hook's report: profile.lost: missing");
  EXPECT_EQ(error_of({{"lost", 0}, {"maps", ""}, {"ips", 3}}),
            "the hook's report: profile.ips: expected an array");
  EXPECT_EQ(error_of({{"lost", 0}, {"maps", ""}, {"ips", {{1, 2}, {3}}}}),
            "the hook's report: profile.ips[1]: expected [address, samples]");
}

TEST(ProfileMeter, CallgrindSharesAreSelfCostOverTotal) {
  CallgrindResult cg{
      10, 1000, 100.0, {{"a()", "x", 600, 900}, {"b()", "x", 300, 300}, {"c()", "x", 0, 0}}};
  auto p = profile_from_callgrind(cg, 1);
  EXPECT_EQ(p.source, "callgrind");
  EXPECT_EQ(p.samples, 1000u);
  ASSERT_EQ(p.symbols.size(), 1u);
  EXPECT_EQ(p.symbols[0].symbol, "a()");
  EXPECT_DOUBLE_EQ(p.symbols[0].share, 0.6);
}

}  // namespace
}  // namespace perfci
