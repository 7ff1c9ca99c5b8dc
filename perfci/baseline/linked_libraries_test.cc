#include "perfci/baseline/linked_libraries.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::baseline {
namespace {

TEST(LinkedLibraries, SelectsBySonamePrefix) {
  EXPECT_TRUE(library_matches("libc.so.6", "libc"));
  EXPECT_TRUE(library_matches("libc.so.6", "libc.so.6"));
  EXPECT_FALSE(library_matches("libcap.so.2", "libc"));
  EXPECT_TRUE(library_matches("libsqlite3.so.0", "libsqlite3"));
  EXPECT_TRUE(library_matches("libstdc++.so.6", "libstdc++"));
}

TEST(LinkedLibraries, UpstreamVersionDropsEpochAndRevision) {
  EXPECT_EQ(upstream_version("3.40.1-2+deb12u1"), "3.40.1");
  EXPECT_EQ(upstream_version("2.36-9+deb12u7"), "2.36");
  EXPECT_EQ(upstream_version("1:1.2.13.dfsg-1"), "1.2.13.dfsg");
  EXPECT_EQ(upstream_version("12.2.0"), "12.2.0");
}

TEST(LinkedLibraries, ParsesTheLoaderList) {
  auto list = parse_loader_list(
      "\tlinux-vdso.so.1 (0x00007ffd)\n"
      "\tlibsqlite3.so.0 => /lib/x86_64-linux-gnu/libsqlite3.so.0 (0x00007f00)\n"
      "\tlibmissing.so.1 => not found\n"
      "\t/lib64/ld-linux-x86-64.so.2 (0x00007f01)\n");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].first, "libsqlite3.so.0");
  EXPECT_EQ(list[0].second, "/lib/x86_64-linux-gnu/libsqlite3.so.0");
}

TEST(LinkedLibraries, ThisTestLinksLibcAndKnowsItsVersion) {
  auto libs = linked_libraries(std::filesystem::canonical("/proc/self/exe").string());
  bool libc = false;
  for (const auto& l : libs) {
    EXPECT_FALSE(l.path.empty()) << l.soname;
    EXPECT_FALSE(l.version.empty()) << l.soname;
    if (l.soname == "libc.so.6") libc = true;
  }
  EXPECT_TRUE(libc);
}

TEST(LinkedLibraries, NotElfIsAnError) {
  TempDir dir;
  write_file_atomic(dir.path() / "script", "#!/bin/sh\n");
  EXPECT_THROW(linked_libraries((dir.path() / "script").string()), Error);
  EXPECT_THROW(linked_libraries((dir.path() / "missing").string()), Error);
}

}  // namespace
}  // namespace perfci::baseline
