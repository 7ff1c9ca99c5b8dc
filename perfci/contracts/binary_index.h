// A built binary, indexed once for all contracts: its ELF symbols, its DWARF
// (one walk over every unit), a disassembler with PLT/GOT resolution, and
// name look-ups that join the three.
#pragma once

#include <elfutils/libdw.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "perfci/contracts/code_scanner.h"
#include "perfci/contracts/dwarf_index.h"
#include "perfci/contracts/elf_image.h"
#include "perfci/contracts/name_match.h"

namespace perfci::contracts {

// Everything in the binary that a function pattern names.
struct FunctionMatches {
  std::vector<uint32_t> concrete;           // DWARF functions with code (clones, parts included)
  std::vector<uint32_t> declared;           // DWARF functions without code of their own
  std::vector<const InlinedCopy*> inlined;  // copies inlined into other functions
  std::vector<const ElfFunctionSymbol*>
      symbols;                       // out-of-line symbols (clones, .cold parts included)
  std::vector<std::string> imports;  // imported names (PLT / GOT) that match
  std::vector<std::string> names;    // distinct qualified names, for messages

  bool empty() const {
    return concrete.empty() && declared.empty() && inlined.empty() && symbols.empty() &&
           imports.empty();
  }
};

class BinaryIndex {
 public:
  // Throws BinaryError when the binary is missing, not ELF, or has no DWARF
  // (the message says how to build with -g).
  explicit BinaryIndex(const std::string& path);
  ~BinaryIndex();
  BinaryIndex(const BinaryIndex&) = delete;
  BinaryIndex& operator=(const BinaryIndex&) = delete;

  const ElfImage& elf() const { return *elf_; }
  const DwarfIndex& dwarf() const { return *dwarf_index_; }
  const CodeScanner& scanner() const { return *scanner_; }

  FunctionMatches find_functions(const NamePattern& pattern) const;

  // Qualified name (clone markers removed) of the symbol, and its full
  // demangled form.
  const std::string& symbol_base_name(const ElfFunctionSymbol& symbol) const;
  std::string symbol_display_name(const ElfFunctionSymbol& symbol) const;
  // The best name for code at `addr`: the DWARF function holding it, else
  // the ELF symbol, else the address.
  std::string describe_code(uint64_t addr) const;
  // The name a control transfer lands on.
  std::string describe_target(const ControlTransfer& t) const;
  // Canonical name of the import or function a transfer lands on ("" when
  // unknown).
  std::string target_base_name(const ControlTransfer& t) const;

  const std::string& normalized_function_name(uint32_t dwarf_index) const;

 private:
  struct SymbolNames {
    bool ready = false;
    std::string base;        // qualified, no parameters
    std::string normalized;  // canonical base
    std::string signature;   // canonical full demangled name
  };
  const SymbolNames& names_of(size_t symbol_index) const;

  std::string path_;
  std::unique_ptr<ElfImage> elf_;
  Dwarf* dwarf_ = nullptr;
  std::unique_ptr<DwarfIndex> dwarf_index_;
  std::unique_ptr<CodeScanner> scanner_;
  mutable std::vector<SymbolNames> symbol_names_;
  mutable std::vector<std::string> normalized_functions_;
  mutable std::vector<bool> normalized_ready_;
};

// The longest identifier in a normalised pattern that normalisation cannot
// remove from a name; a raw name without it cannot match. Empty if none.
std::string required_token(std::string_view normalized_pattern);

}  // namespace perfci::contracts
