// One ELF file opened through libelf (perfci::ElfFile, mapped): its function
// symbols, its allocated section contents (code to disassemble, GOT slots to
// read) and its dynamic relocations (which import each GOT slot holds).
#pragma once

#include <libelf.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "perfci/util/elf_file.h"

namespace perfci::contracts {

struct ElfFunctionSymbol {
  uint64_t addr = 0;
  uint64_t size = 0;
  std::string_view name;  // mangled, as in the symbol table
};

struct ElfSection {
  std::string_view name;
  uint64_t addr = 0;
  std::span<const uint8_t> bytes;
  bool executable = false;
};

// What a GOT slot is known to hold: an imported symbol (by name) or a fixed
// address inside this binary.
struct GotSlot {
  std::string_view import_name;
  uint64_t target = 0;
};

class ElfImage {
 public:
  // Throws BinaryError when the file is missing, unreadable, not ELF or not
  // x86-64 (ElfFile's wording: "<path>: cannot open: <why>", "<path>: not an
  // ELF file"). The file is closed again on every path, a throw included.
  explicit ElfImage(const std::string& path);
  ElfImage(const ElfImage&) = delete;
  ElfImage& operator=(const ElfImage&) = delete;

  Elf* elf() const { return file_.get(); }
  const std::string& path() const { return file_.path(); }

  // Defined functions from .symtab and .dynsym, sorted by address, one entry
  // per distinct (address, name).
  const std::vector<ElfFunctionSymbol>& functions() const { return functions_; }
  // Every function symbol that starts at `addr`.
  std::span<const ElfFunctionSymbol> functions_starting_at(uint64_t addr) const;
  // The function whose [addr, addr+size) holds `addr`, if any.
  const ElfFunctionSymbol* function_containing(uint64_t addr) const;

  const std::vector<ElfSection>& sections() const { return sections_; }
  const ElfSection* section_named(std::string_view name) const;
  // Bytes of allocated sections from `addr` to the end of its section.
  std::span<const uint8_t> bytes_at(uint64_t addr) const;
  std::optional<uint64_t> read_u64(uint64_t addr) const;

  // GOT slots filled by dynamic relocations, by slot address.
  const GotSlot* got_slot(uint64_t slot_addr) const;
  // Distinct names of the symbols that GOT slots are filled with.
  std::vector<std::string_view> import_names() const;

 private:
  void load_sections();
  void load_symbols();
  void load_relocations();

  ElfFile file_;  // ELF_C_READ_MMAP: sections_ point into its mapping
  std::vector<ElfSection> sections_;
  std::vector<ElfFunctionSymbol> functions_;
  std::unordered_map<uint64_t, GotSlot> got_;
};

}  // namespace perfci::contracts
