#include "perfci/contracts/dwarf_index.h"

#include <dwarf.h>
#include <fmt/format.h>

#include <algorithm>

#include "perfci/contracts/binary_error.h"
#include "perfci/contracts/name_match.h"
#include "perfci/util/demangle.h"

namespace perfci::contracts {
namespace {

constexpr int kOrdinalShift = 48;

bool is_declaration(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  bool flag = false;
  return dwarf_attr(die, DW_AT_declaration, &attr) != nullptr &&
         dwarf_formflag(&attr, &flag) == 0 && flag;
}

std::string qualify(const std::string& scope, std::string_view name) {
  if (scope.empty()) return std::string(name);
  std::string out;
  out.reserve(scope.size() + 2 + name.size());
  out.append(scope).append("::").append(name);
  return out;
}

}  // namespace

DwarfIndex::DwarfIndex(Dwarf* dwarf) {
  dwarf_ordinal(dwarf);
  Dwarf_CU* cu = nullptr;
  Dwarf_CU* next = nullptr;
  Dwarf_Half version = 0;
  uint8_t unit_type = 0;
  Dwarf_Die cu_die, sub_die;
  int rc;
  while ((rc = dwarf_get_units(dwarf, cu, &next, &version, &unit_type, &cu_die, &sub_die)) == 0) {
    cu = next;
    ++unit_count_;
    if (unit_type == DW_UT_skeleton) {
      // The split unit (in a .dwo) holds the DIEs; the skeleton only points.
      if (dwarf_tag(&sub_die) == DW_TAG_compile_unit) walk_unit(&sub_die);
      continue;
    }
    if (unit_type == DW_UT_type || unit_type == DW_UT_split_type) {
      walk_unit(&cu_die);  // types only, no code
      continue;
    }
    walk_unit(&cu_die);
  }
  if (rc < 0) throw BinaryError(fmt::format("cannot read DWARF units: {}", dwarf_errmsg(-1)));

  for (uint32_t i = 0; i < functions_.size(); ++i)
    for (const AddrRange& r : ranges_of(functions_[i])) code_map_.push_back({r, i});
  std::sort(code_map_.begin(), code_map_.end(),
            [](const auto& a, const auto& b) { return a.first.lo < b.first.lo; });
  names_.resize(functions_.size());
  named_.resize(functions_.size(), false);
}

uint32_t DwarfIndex::dwarf_ordinal(Dwarf* dwarf) {
  for (uint32_t i = 0; i < dwarfs_.size(); ++i)
    if (dwarfs_[i] == dwarf) return i;
  dwarfs_.push_back(dwarf);
  return static_cast<uint32_t>(dwarfs_.size() - 1);
}

DieKey DwarfIndex::key_of(Dwarf_Die* die) {
  Dwarf* owner = dwarf_cu_getdwarf(die->cu);
  return (static_cast<DieKey>(dwarf_ordinal(owner)) << kOrdinalShift) | dwarf_dieoffset(die);
}

DieKey DwarfIndex::key_of_existing(Dwarf_Die* die) const {
  Dwarf* owner = dwarf_cu_getdwarf(die->cu);
  for (uint32_t i = 0; i < dwarfs_.size(); ++i)
    if (dwarfs_[i] == owner)
      return (static_cast<DieKey>(i) << kOrdinalShift) | dwarf_dieoffset(die);
  return 0;
}

bool DwarfIndex::die_of(DieKey key, Dwarf_Die* out) const {
  size_t ordinal = key >> kOrdinalShift;
  if (ordinal >= dwarfs_.size()) return false;
  Dwarf_Off offset = key & ((DieKey{1} << kOrdinalShift) - 1);
  return dwarf_offdie(dwarfs_[ordinal], offset, out) != nullptr;
}

DieKey DwarfIndex::reference(Dwarf_Die* die, unsigned attr_name) {
  Dwarf_Attribute attr;
  Dwarf_Die target;
  if (dwarf_attr(die, attr_name, &attr) == nullptr || dwarf_formref_die(&attr, &target) == nullptr)
    return 0;
  return key_of(&target);
}

void DwarfIndex::walk_unit(Dwarf_Die* cu_die) {
  std::string scope;
  walk_scope(cu_die, scope);
}

void DwarfIndex::walk_scope(Dwarf_Die* parent, std::string& scope) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    switch (tag) {
      case DW_TAG_namespace: {
        const char* name = dwarf_diename(&child);
        size_t saved = scope.size();
        scope = qualify(scope, name ? name : "(anonymous namespace)");
        walk_scope(&child, scope);
        scope.resize(saved);
        break;
      }
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
      case DW_TAG_enumeration_type: {
        const char* name = dwarf_diename(&child);
        if (name != nullptr && !is_declaration(&child)) add_type(&child, scope, name);
        if (dwarf_haschildren(&child) > 0) {
          size_t saved = scope.size();
          scope = qualify(scope, name ? name : "(anonymous)");
          walk_scope(&child, scope);
          scope.resize(saved);
        }
        break;
      }
      case DW_TAG_typedef: {
        const char* name = dwarf_diename(&child);
        if (name != nullptr) add_type(&child, scope, name);
        break;
      }
      case DW_TAG_subprogram:
        add_function(&child, scope);
        break;
      case DW_TAG_lexical_block:
      case DW_TAG_inlined_subroutine:
        walk_scope(&child, scope);
        break;
      default:
        break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
}

void DwarfIndex::add_type(Dwarf_Die* die, const std::string& scope, const char* name) {
  Dwarf_Word size = 0;
  if (dwarf_aggregate_size(die, &size) != 0) return;
  std::string qualified = qualify(scope, name);
  auto [it, inserted] = type_index_.try_emplace(qualified, static_cast<uint32_t>(types_.size()));
  if (inserted) {
    types_.push_back(DwarfTypeSize{std::move(qualified), size, size});
  } else {
    DwarfTypeSize& t = types_[it->second];
    t.min_bytes = std::min<uint64_t>(t.min_bytes, size);
    t.max_bytes = std::max<uint64_t>(t.max_bytes, size);
  }
}

bool DwarfIndex::read_ranges(Dwarf_Die* die, uint32_t* begin, uint32_t* count) {
  *begin = static_cast<uint32_t>(ranges_.size());
  Dwarf_Addr base = 0, start = 0, end = 0;
  ptrdiff_t offset = 0;
  while ((offset = dwarf_ranges(die, offset, &base, &start, &end)) > 0)
    if (end > start) ranges_.push_back(AddrRange{start, end});
  *count = static_cast<uint32_t>(ranges_.size()) - *begin;
  return *count > 0;
}

void DwarfIndex::add_function(Dwarf_Die* die, const std::string& scope) {
  DwarfFunction f;
  f.key = key_of(die);
  f.origin = reference(die, DW_AT_abstract_origin);
  if (f.origin == 0) f.origin = reference(die, DW_AT_specification);
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_linkage_name, &attr) != nullptr ||
      dwarf_attr(die, DW_AT_MIPS_linkage_name, &attr)) {
    if (const char* s = dwarf_formstring(&attr)) f.linkage = s;
  }
  const char* name = dwarf_diename(die);
  if (name != nullptr) f.lexical = qualify(scope, name);
  uint32_t index = static_cast<uint32_t>(functions_.size());
  if (dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges))
    read_ranges(die, &f.range_begin, &f.range_count);
  by_key_.emplace(f.key, index);
  functions_.push_back(std::move(f));
  if (dwarf_haschildren(die) <= 0) return;
  uint32_t inlined_begin = static_cast<uint32_t>(inlined_.size());
  if (functions_[index].range_count > 0) walk_code(die, index, 1);
  functions_[index].inlined_begin = inlined_begin;
  functions_[index].inlined_count = static_cast<uint32_t>(inlined_.size()) - inlined_begin;
  // Local classes and their member functions are scoped by the function.
  std::string inner = name ? qualify(scope, name) : scope;
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_class_type || tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
      const char* cname = dwarf_diename(&child);
      if (cname != nullptr && !is_declaration(&child)) add_type(&child, inner, cname);
    }
  } while (dwarf_siblingof(&child, &child) == 0);
}

void DwarfIndex::walk_code(Dwarf_Die* parent, uint32_t owner, uint16_t depth) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_inlined_subroutine) {
      InlinedCopy copy;
      copy.origin = reference(&child, DW_AT_abstract_origin);
      copy.owner = owner;
      copy.depth = depth;
      read_ranges(&child, &copy.range_begin, &copy.range_count);
      inlined_.push_back(copy);
      walk_code(&child, owner, static_cast<uint16_t>(depth + 1));
    } else if (tag == DW_TAG_lexical_block) {
      walk_code(&child, owner, depth);
    }
  } while (dwarf_siblingof(&child, &child) == 0);
}

std::span<const AddrRange> DwarfIndex::ranges_of(const DwarfFunction& f) const {
  return {ranges_.data() + f.range_begin, f.range_count};
}

std::span<const AddrRange> DwarfIndex::ranges_of(const InlinedCopy& c) const {
  return {ranges_.data() + c.range_begin, c.range_count};
}

std::span<const InlinedCopy> DwarfIndex::inlined_under(const DwarfFunction& f) const {
  return {inlined_.data() + f.inlined_begin, f.inlined_count};
}

std::optional<uint32_t> DwarfIndex::function_by_key(DieKey key) const {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}

const std::string& DwarfIndex::name_of(uint32_t index) const {
  if (named_[index]) return names_[index];
  // Follow origins to the root declaration (bounded: corrupt DWARF may loop).
  uint32_t current = index;
  for (int hops = 0; hops < 16; ++hops) {
    const DwarfFunction& f = functions_[current];
    if (f.origin == 0) break;
    auto next = function_by_key(f.origin);
    if (!next || *next == current) break;
    current = *next;
    if (named_[current]) break;
  }
  std::string name;
  if (named_[current]) {
    name = names_[current];
  } else if (!functions_[current].lexical.empty()) {
    name = functions_[current].lexical;
  } else if (!functions_[index].linkage.empty()) {
    name = function_base_name(demangle(functions_[index].linkage));
  } else if (!functions_[current].linkage.empty()) {
    name = function_base_name(demangle(functions_[current].linkage));
  }
  names_[index] = std::move(name);
  named_[index] = true;
  return names_[index];
}

std::string DwarfIndex::name_of_key(DieKey key) const {
  auto index = function_by_key(key);
  return index ? name_of(*index) : std::string();
}

std::vector<uint32_t> DwarfIndex::functions_at(uint64_t addr) const {
  std::vector<uint32_t> out;
  auto it = std::lower_bound(code_map_.begin(), code_map_.end(), addr,
                             [](const auto& e, uint64_t a) { return e.first.lo < a; });
  for (; it != code_map_.end() && it->first.lo == addr; ++it) out.push_back(it->second);
  return out;
}

std::optional<uint32_t> DwarfIndex::function_containing(uint64_t addr) const {
  auto it = std::upper_bound(code_map_.begin(), code_map_.end(), addr,
                             [](uint64_t a, const auto& e) { return a < e.first.lo; });
  for (int steps = 0; it != code_map_.begin() && steps < 8; ++steps) {
    --it;
    if (it->first.contains(addr)) return it->second;
  }
  return std::nullopt;
}

}  // namespace perfci::contracts
