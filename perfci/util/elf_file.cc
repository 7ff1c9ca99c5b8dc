#include "perfci/util/elf_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "perfci/util/error.h"

namespace perfci {

ElfFile::ElfFile(const std::string& path) {
  elf_version(EV_CURRENT);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
  elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
  if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
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
