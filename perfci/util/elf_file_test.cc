#include "perfci/util/elf_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {
namespace {

int open_fds() {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

std::string error_opening(const std::string& path) {
  try {
    ElfFile file(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ElfFile, OpensThisTestBinary) {
  int before = open_fds();
  {
    ElfFile file("/proc/self/exe");
    EXPECT_NE(file.get(), nullptr);
    EXPECT_EQ(elf_kind(file.get()), ELF_K_ELF);
    EXPECT_EQ(file.path(), "/proc/self/exe");
    EXPECT_EQ(open_fds(), before + 1);
  }
  EXPECT_EQ(open_fds(), before) << "the destructor closes the descriptor";
  ElfFile mapped("/proc/self/exe", ELF_C_READ_MMAP);
  EXPECT_EQ(elf_kind(mapped.get()), ELF_K_ELF);
}

TEST(ElfFile, MissingAndNonElfFilesAreClearErrorsThatLeakNothing) {
  TempDir dir("perfci-elf");
  const std::string text = (dir.path() / "notes.txt").string();
  write_file_atomic(text, "not an ELF file, just text\n");
  const std::string empty = (dir.path() / "empty").string();
  write_file_atomic(empty, "");
  const std::string missing = (dir.path() / "missing").string();

  int before = open_fds();
  EXPECT_EQ(error_opening(missing), missing + ": cannot open: No such file or directory");
  EXPECT_EQ(error_opening(text), text + ": not an ELF file");
  EXPECT_EQ(error_opening(empty), empty + ": not an ELF file");
  EXPECT_EQ(error_opening(dir.path().string()), dir.path().string() + ": not an ELF file");
  EXPECT_EQ(open_fds(), before) << "a failed open closes what it opened";
}

}  // namespace
}  // namespace perfci
