#include "perfci/util/elf_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "perfci/util/error.h"

namespace perfci {

ElfFile::ElfFile(const std::string& path, Elf_Cmd cmd) : path_(path) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw Error("libelf is too old for this ELF version");
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
  elf_ = elf_begin(fd_, cmd, nullptr);
  if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
    // The destructor does not run for a constructor that throws.
    if (elf_ != nullptr) elf_end(elf_);
    ::close(fd_);
    throw Error(path + ": not an ELF file");
  }
}

ElfFile::~ElfFile() {
  elf_end(elf_);
  ::close(fd_);
}

}  // namespace perfci
