// ElfImage's errors and the descriptors and mappings it holds: released on
// every path, a throw while the sections load included.
#include "perfci/contracts/elf_image.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>

#include "perfci/contracts/binary_error.h"
#include "perfci/util/files.h"

namespace perfci::contracts {
namespace {

int open_fds() {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// Lines of /proc/self/maps that map `path`.
int mappings_of(const std::string& path) {
  std::istringstream maps(read_file("/proc/self/maps"));
  int n = 0;
  for (std::string line; std::getline(maps, line);)
    if (line.find(path) != std::string::npos) ++n;
  return n;
}

// A bare ELF header and nothing else. With e_shstrndx = SHN_XINDEX the index
// of the section names is in section 0's header, which lies past the end of
// the file: libelf opens it, the header says x86-64, and reading the section
// names fails (load_sections throws).
std::string elf_header(uint16_t machine, bool broken_section_names) {
  Elf64_Ehdr h{};
  std::memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_type = ET_EXEC;
  h.e_machine = machine;
  h.e_version = EV_CURRENT;
  h.e_ehsize = sizeof h;
  h.e_shentsize = sizeof(Elf64_Shdr);
  if (broken_section_names) {
    h.e_shoff = 8;
    h.e_shstrndx = SHN_XINDEX;
  }
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

std::string error_loading(const std::string& path) {
  try {
    ElfImage image(path);
  } catch (const BinaryError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ElfImage, MissingAndNonElfFilesAreBinaryErrors) {
  TempDir dir("perfci-elf-image");
  const std::string text = (dir.path() / "bench.txt").string();
  write_file_atomic(text, "#!/bin/sh\necho not a binary\n");
  const std::string missing = (dir.path() / "missing").string();
  int before = open_fds();
  EXPECT_EQ(error_loading(missing), missing + ": cannot open: No such file or directory");
  EXPECT_EQ(error_loading(text), text + ": not an ELF file");
  EXPECT_EQ(open_fds(), before);
}

TEST(ElfImage, AThrowAfterOpeningReleasesTheFile) {
  TempDir dir("perfci-elf-image");
  const std::string arm = (dir.path() / "arm").string();
  write_file_atomic(arm, elf_header(EM_AARCH64, false));
  const std::string broken = (dir.path() / "broken").string();
  write_file_atomic(broken, elf_header(EM_X86_64, true));

  int before = open_fds();
  EXPECT_EQ(error_loading(arm), arm + ": not an x86-64 ELF file");
  EXPECT_EQ(open_fds(), before);
  EXPECT_EQ(mappings_of(arm), 0);

  // Thrown from load_sections, after the file is open and mapped.
  EXPECT_EQ(error_loading(broken), broken + ": no section names");
  EXPECT_EQ(open_fds(), before) << "the descriptor leaks when section loading throws";
  EXPECT_EQ(mappings_of(broken), 0) << "the mapping leaks when section loading throws";
}

TEST(ElfImage, TheFileStaysOpenWhileTheImageLives) {
  int before = open_fds();
  {
    ElfImage image("/proc/self/exe");
    EXPECT_FALSE(image.functions().empty());
    EXPECT_EQ(open_fds(), before + 1);
  }
  EXPECT_EQ(open_fds(), before);
}

}  // namespace
}  // namespace perfci::contracts
