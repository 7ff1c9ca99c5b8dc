// An ELF file held open through libelf for as long as the object lives: the
// one place where perfci opens a binary to read its headers, notes, symbols
// or DWARF, so every reader reports a missing or non-ELF file the same way
// and none leaks a descriptor or an Elf handle on the error paths (whatever
// throws after the constructor, the destructor still runs for a member or a
// local ElfFile).
#pragma once

#include <libelf.h>

#include <string>

namespace perfci {

class ElfFile {
 public:
  // How libelf reads the file: ELF_C_READ copies what it reads into memory;
  // ELF_C_READ_MMAP maps the file, so section bytes handed out (elf_rawdata)
  // point into the mapping and stay valid while the object lives.
  //
  // Throws perfci::Error "<path>: cannot open: <why>" or "<path>: not an ELF
  // file" (and "libelf is too old for this ELF version" when libelf cannot
  // read ELF at all).
  explicit ElfFile(const std::string& path, Elf_Cmd cmd = ELF_C_READ);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  Elf* get() const { return elf_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

}  // namespace perfci
