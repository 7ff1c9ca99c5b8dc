// An ELF file held open through libelf for as long as the object lives: the
// one place where perfci opens a binary to read its headers, notes, symbols
// or DWARF, so every reader reports a missing or non-ELF file the same way
// and none leaks a descriptor on the error paths.
#pragma once

#include <libelf.h>

#include <string>

namespace perfci {

class ElfFile {
 public:
  // Throws perfci::Error "<path>: cannot open: <why>" or "<path>: not an ELF file".
  explicit ElfFile(const std::string& path);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  Elf* get() const { return elf_; }

 private:
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

}  // namespace perfci
