#include "perfci/util/files.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

TEST(Files, AtomicWriteReplacesAndReadsBack) {
  TempDir dir;
  auto p = dir.path() / "out.json";
  write_file_atomic(p, "one");
  write_file_atomic(p, "two");
  EXPECT_EQ(read_file(p), "two");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1) << "no temporary file is left behind";
}

TEST(Files, ErrorsNameTheFile) {
  try {
    read_file("/nonexistent/perfci.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfci.json"), std::string::npos);
  }
  EXPECT_THROW(write_file_atomic("/nonexistent/dir/x", "y"), Error);
}

TEST(Files, TempDirIsRemoved) {
  std::filesystem::path p;
  {
    TempDir dir("perfci-test");
    p = dir.path();
    write_file_atomic(p / "f", "x");
    EXPECT_TRUE(std::filesystem::exists(p / "f"));
  }
  EXPECT_FALSE(std::filesystem::exists(p));
}

}  // namespace
}  // namespace perfci
