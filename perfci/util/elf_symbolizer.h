// Maps addresses of an ELF file to function names: the out-of-line symbol
// from .symtab/.dynsym (libelf), and, where DWARF (libdw) says the address
// belongs to an inlined call, the inlined function. Names are demangled.
// A profile sample in decode_varint inlined into Cursor::seek is attributed
// to decode_varint, inside Cursor::seek.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

struct Symbolization {
  std::string symbol;    // demangled out-of-line symbol containing the address
  std::string function;  // innermost function: the inlined callee, else == symbol
  bool inlined = false;
  std::uint64_t symbol_address = 0;
};

class ElfSymbolizer {
 public:
  // Throws perfci::Error naming the file when it is missing or not ELF.
  explicit ElfSymbolizer(const std::string& path);
  ~ElfSymbolizer();
  ElfSymbolizer(const ElfSymbolizer&) = delete;
  ElfSymbolizer& operator=(const ElfSymbolizer&) = delete;

  // vaddr is a link-time address (as in the symbol table).
  std::optional<Symbolization> symbolize(std::uint64_t vaddr) const;
  // The link-time address of a byte at this file offset (PT_LOAD mapping).
  std::optional<std::uint64_t> vaddr_for_offset(std::uint64_t offset) const;
  // Link-time address of the first function symbol with this mangled or
  // demangled name.
  std::optional<std::uint64_t> find_symbol(const std::string& name) const;
  bool has_dwarf() const;
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace perfci
