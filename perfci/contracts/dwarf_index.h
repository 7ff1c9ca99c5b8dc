// Everything the contracts need from DWARF, gathered in one walk over all
// units (DWARF 4 and 5, type units, skeleton + split units): every
// subprogram with its code ranges and the inlined copies under it (lexical
// blocks and nested inlines included), and the size of every named type.
// Contracts then query maps; nothing walks the DIE tree again.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "perfci/contracts/address_range.h"

namespace perfci::contracts {

// Identifies a DIE across the main file, split units and alternate files.
using DieKey = uint64_t;

struct DwarfFunction {
  DieKey key = 0;
  DieKey origin = 0;         // DW_AT_abstract_origin or DW_AT_specification
  std::string_view linkage;  // DW_AT_linkage_name, may be empty (static functions under gcc)
  std::string lexical;       // DW_AT_name qualified by the enclosing namespaces and classes
  uint32_t range_begin = 0;  // this instance's code, in DwarfIndex::ranges
  uint32_t range_count = 0;
  uint32_t inlined_begin = 0;  // inlined copies under this instance
  uint32_t inlined_count = 0;
};

struct InlinedCopy {
  DieKey origin = 0;  // the function that was inlined
  uint32_t range_begin = 0;
  uint32_t range_count = 0;
  uint32_t owner = 0;  // index of the concrete DwarfFunction holding it
  uint16_t depth = 0;  // 1 = directly in the owner, 2 = inside another inline, ...
};

struct DwarfTypeSize {
  std::string name;        // qualified, as spelled by the compiler
  uint64_t min_bytes = 0;  // the smallest and largest size seen across units
  uint64_t max_bytes = 0;
};

class DwarfIndex {
 public:
  // Walks every unit of `dwarf` once. Throws BinaryError on corrupt DWARF.
  explicit DwarfIndex(Dwarf* dwarf);

  const std::vector<DwarfFunction>& functions() const { return functions_; }
  const std::vector<InlinedCopy>& inlined() const { return inlined_; }
  const std::vector<DwarfTypeSize>& types() const { return types_; }
  std::span<const AddrRange> ranges_of(const DwarfFunction& f) const;
  std::span<const AddrRange> ranges_of(const InlinedCopy& c) const;
  std::span<const InlinedCopy> inlined_under(const DwarfFunction& f) const;

  std::optional<uint32_t> function_by_key(DieKey key) const;
  // Qualified name of a function: follows abstract origins and
  // specifications to the declaration, whose scopes give the qualification
  // (GCC emits no linkage name for static functions).
  const std::string& name_of(uint32_t function_index) const;
  std::string name_of_key(DieKey key) const;
  // Concrete functions whose code starts at `addr` (entry of a range).
  std::vector<uint32_t> functions_at(uint64_t addr) const;
  // The concrete function whose ranges hold `addr`.
  std::optional<uint32_t> function_containing(uint64_t addr) const;

  // The DIE behind a key, for the rare per-contract look-ups (parameters,
  // return types). Returns false when it cannot be read.
  bool die_of(DieKey key, Dwarf_Die* out) const;
  DieKey key_of(Dwarf_Die* die);
  DieKey key_of_existing(Dwarf_Die* die) const;

  size_t unit_count() const { return unit_count_; }

 private:
  struct Scope;
  void walk_unit(Dwarf_Die* cu_die);
  void walk_scope(Dwarf_Die* parent, std::string& scope);
  void add_function(Dwarf_Die* die, const std::string& scope);
  void walk_code(Dwarf_Die* parent, uint32_t owner, uint16_t depth);
  void add_type(Dwarf_Die* die, const std::string& scope, const char* name);
  bool read_ranges(Dwarf_Die* die, uint32_t* begin, uint32_t* count);
  DieKey reference(Dwarf_Die* die, unsigned attr);
  uint32_t dwarf_ordinal(Dwarf* dwarf);

  std::vector<Dwarf*> dwarfs_;
  std::vector<DwarfFunction> functions_;
  std::vector<InlinedCopy> inlined_;
  std::vector<AddrRange> ranges_;
  std::vector<DwarfTypeSize> types_;
  std::unordered_map<std::string, uint32_t> type_index_;
  std::unordered_map<DieKey, uint32_t> by_key_;
  // (lo, function index) for each range of a concrete function, sorted.
  std::vector<std::pair<AddrRange, uint32_t>> code_map_;
  mutable std::vector<std::string> names_;
  mutable std::vector<bool> named_;
  size_t unit_count_ = 0;
};

}  // namespace perfci::contracts
