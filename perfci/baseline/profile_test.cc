#include "perfci/baseline/profile.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/util/error.h"

namespace perfci::baseline {
namespace {

TEST(Profile, IdNamesArchOsCompilerAndBuild) {
  Profile p = fixtures::sample_profile();
  EXPECT_EQ(p.id, "x86_64-debian12-gcc12-release");
  Toolchain t = p.toolchain;
  t.compiler = "clang";
  t.compiler_version = "14.0.6";
  t.producer = "Debian clang version 14.0.6";
  EXPECT_EQ(profile_id(t), "x86_64-debian12-clang14-release");
  t.build_type = "Debug";
  t.producer = "GNU C++20 12.2.0 -g -O1 -fsanitize=address";
  EXPECT_EQ(profile_id(t), "x86_64-debian12-clang14-debug-sanitize");
}

TEST(Profile, EqualProfilesMatch) {
  auto c = compare_profiles(fixtures::sample_profile(), fixtures::sample_profile());
  EXPECT_TRUE(c.toolchain_matches());
  EXPECT_TRUE(c.machine_matches());
}

TEST(Profile, ToolchainFactsAreComparedOneByOne) {
  Profile a = fixtures::sample_profile(), b = a;
  b.toolchain.compiler_version = "12.3.0";
  b.toolchain.libraries[0].version = "3.42.0";
  b.toolchain.libraries.pop_back();
  b.toolchain.cpu_features.push_back("avx512f");
  // The exact package build differs, the upstream version does not: comparable.
  a.toolchain.libraries[0].package_version = "3.40.1-2";
  auto c = compare_profiles(a, b);
  ASSERT_EQ(c.toolchain.size(), 3u);
  EXPECT_EQ(c.toolchain[0].fact, "compiler_version");
  EXPECT_EQ(c.toolchain[1].fact, "library libc.so.6");
  EXPECT_EQ(c.toolchain[1].current, "(not linked)");
  EXPECT_EQ(c.toolchain[2].fact, "library libsqlite3.so.0");
  EXPECT_EQ(c.toolchain[2].baseline, "3.40.1");
  // The host's features are a machine fact: under valgrind the program sees
  // valgrind's CPU, which the valgrind view records (issue 13).
  ASSERT_EQ(c.machine.size(), 1u);
  EXPECT_EQ(c.machine[0].fact, "cpu_features (host)");
}

TEST(Profile, MachineFactsAreSeparate) {
  Profile a = fixtures::sample_profile(), b = a;
  b.machine.hostname = "runner-7";
  b.machine.kernel = "Linux 6.5";  // recorded, not compared
  auto c = compare_profiles(a, b);
  EXPECT_TRUE(c.toolchain_matches());
  ASSERT_EQ(c.machine.size(), 1u);
  EXPECT_EQ(c.machine[0].fact, "hostname");
}

TEST(Profile, JsonRoundTripAndErrors) {
  Profile p = fixtures::sample_profile();
  nlohmann::json j = p;
  Profile q = profile_from_json(j, "b.json: profile");
  EXPECT_TRUE(compare_profiles(p, q).toolchain_matches());
  EXPECT_EQ(q.id, p.id);
  EXPECT_EQ(q.toolchain.libraries[0].package_version, "3.40.1-2+deb12u1");
  j["toolchain"].erase("compiler");
  try {
    profile_from_json(j, "b.json: profile");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "b.json: profile.toolchain.compiler: missing");
  }
}

TEST(Profile, CollectedFromThisTestBinary) {
  Profile p =
      collect_profile(std::filesystem::canonical("/proc/self/exe").string(), {{"libc"}, {}});
  EXPECT_FALSE(p.toolchain.arch.empty());
  EXPECT_FALSE(p.toolchain.producer.empty());  // tests are built with -g
  ASSERT_EQ(p.toolchain.libraries.size(), 1u);
  EXPECT_EQ(p.toolchain.libraries[0].soname, "libc.so.6");
  EXPECT_GT(p.machine.logical_cpus, 0);
  // The id names what it was made from: this test binary's compiler.
  EXPECT_NE(p.id.find(p.toolchain.compiler), std::string::npos) << p.id;
  EXPECT_EQ(p.id.rfind(p.toolchain.arch + "-", 0), 0u) << p.id;
}

// The build flavour is information: it is collected and kept, and neither
// the id nor the comparison sees it, so stored baselines keep matching.
TEST(Profile, BuildFlavourIsKeptButNeverCompared) {
  Profile p =
      collect_profile(std::filesystem::canonical("/proc/self/exe").string(), {{"libc"}, {}});
  ASSERT_TRUE(p.build_flavour.contains("optimization")) << p.build_flavour;
  ASSERT_TRUE(p.build_flavour.contains("assertions")) << p.build_flavour;
  EXPECT_FALSE(p.build_flavour.contains("producer")) << "the toolchain has it already";

  Profile q = fixtures::sample_profile();
  const std::string id = q.id;
  Profile r = q;
  r.build_flavour = {{"optimization", "-O0"}, {"gbench_library_build_type", "debug"}};
  EXPECT_TRUE(compare_profiles(q, r).toolchain_matches());
  EXPECT_TRUE(compare_profiles(q, r).machine_matches());
  EXPECT_EQ(profile_id(r.toolchain), profile_id(q.toolchain));
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("build_flavour").at("gbench_library_build_type"), "debug");
  EXPECT_EQ(profile_from_json(j, "b.json: profile").build_flavour, r.build_flavour);
  EXPECT_FALSE(nlohmann::json(q).contains("build_flavour")) << "written only when known";
  EXPECT_EQ(q.id, id);
}

}  // namespace
}  // namespace perfci::baseline
