#include "perfci/baseline/compiler_info.h"

#include <gtest/gtest.h>

#include "perfci/util/files.h"

namespace perfci::baseline {
namespace {

TEST(CompilerInfo, GccProducerGivesNameVersionAndFlags) {
  auto c = parse_producer("GNU C++20 12.2.0 -mtune=generic -march=x86-64 -g -O2 -std=c++20");
  EXPECT_EQ(c.name, "gcc");
  EXPECT_EQ(c.version, "12.2.0");
  EXPECT_EQ(c.flags, "-mtune=generic -march=x86-64 -g -O2 -std=c++20");
  EXPECT_EQ(major_version(c.version), "12");
}

TEST(CompilerInfo, ClangProducerHasNoFlags) {
  auto c = parse_producer("Debian clang version 14.0.6");
  EXPECT_EQ(c.name, "clang");
  EXPECT_EQ(c.version, "14.0.6");
  EXPECT_EQ(c.flags, "");
  EXPECT_EQ(parse_producer("").name, "");
  EXPECT_EQ(parse_producer("rustc version 1.70.0").name, "rustc");
}

TEST(CompilerInfo, BuildKindFromCMakeOrFlags) {
  EXPECT_EQ(build_kind("Release", ""), "release");
  EXPECT_EQ(build_kind("", "-g -O2"), "release");
  EXPECT_EQ(build_kind("", "-g"), "debug");
  EXPECT_EQ(build_kind("Debug", "-O1 -g -fsanitize=address"), "debug-sanitize");
}

TEST(CompilerInfo, ReadsTheCMakeCache) {
  TempDir dir;
  EXPECT_EQ(read_cmake_build_settings(dir.path()).build_type, "");
  EXPECT_TRUE(read_cmake_build_settings(dir.path()).source_dir.empty());
  write_file_atomic(
      dir.path() / "CMakeCache.txt",
      "// comment\nCMAKE_BUILD_TYPE:STRING=Release\nCMAKE_CXX_FLAGS:STRING=-Wall\n"
      "CMAKE_HOME_DIRECTORY:INTERNAL=/src/other tree\n"
      "CMAKE_CXX_FLAGS_RELEASE:STRING=-O2 -g -DNDEBUG\nCMAKE_CXX_FLAGS_DEBUG:STRING=-g\n");
  EXPECT_EQ(read_cmake_build_settings(dir.path()).build_type, "Release");
  EXPECT_EQ(read_cmake_build_settings(dir.path()).source_dir,
            std::filesystem::path("/src/other tree"));
}

}  // namespace
}  // namespace perfci::baseline
