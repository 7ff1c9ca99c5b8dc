#include "perfci/util/elf_symbolizer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "perfci/util/demangle.h"
#include "perfci/util/elf_file.h"
#include "perfci/util/error.h"

namespace perfci {

namespace {

struct Symbol {
  std::uint64_t address;
  std::uint64_t size;
  std::string name;  // mangled
};

struct Segment {
  std::uint64_t offset, filesz, vaddr;
};

// The name a DIE carries, following abstract_origin / specification, with
// the linkage name preferred because it carries the namespace and class.
std::string die_function_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, at, &attr)) {
      if (const char* s = dwarf_formstring(&attr)) return demangle(s);
    }
  }
  if (dwarf_attr_integrate(die, DW_AT_name, &attr)) {
    if (const char* s = dwarf_formstring(&attr)) return s;
  }
  return {};
}

// The innermost DW_TAG_inlined_subroutine under `parent` whose ranges hold
// addr, searched depth-first through namespaces, classes, functions and
// lexical blocks. dwarf_getscopes is not used: it gives up on a whole CU
// ("no address value") when any DIE on its way carries an address it cannot
// read, which clang 14's CUs in test binaries do; this walk skips such DIEs.
// Returns true once the function containing addr was found.
bool find_innermost_inline(Dwarf_Die* parent, Dwarf_Addr addr, Dwarf_Die* inlined,
                           bool* found_inline) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    switch (dwarf_tag(&child)) {
      case DW_TAG_namespace:
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
        if (find_innermost_inline(&child, addr, inlined, found_inline)) return true;
        break;
      case DW_TAG_subprogram:
      case DW_TAG_lexical_block:
      case DW_TAG_inlined_subroutine:
        if (dwarf_haspc(&child, addr) > 0) {
          if (dwarf_tag(&child) == DW_TAG_inlined_subroutine) {
            *inlined = child;
            *found_inline = true;
          }
          find_innermost_inline(&child, addr, inlined, found_inline);
          return true;
        }
        break;
      default:
        break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

}  // namespace

struct ElfSymbolizer::Impl {
  std::unique_ptr<ElfFile> file;
  Elf* elf = nullptr;
  Dwarf* dwarf = nullptr;
  std::vector<Symbol> symbols;  // sorted by address
  std::vector<Segment> segments;
  std::vector<Dwarf_Die> cus;  // for lookups when .debug_aranges is absent (clang)
  bool cus_loaded = false;

  ~Impl() {
    if (dwarf) dwarf_end(dwarf);
  }

  bool find_cu(std::uint64_t addr, Dwarf_Die* out) {
    if (dwarf_addrdie(dwarf, addr, out) != nullptr) return true;
    if (!cus_loaded) {
      cus_loaded = true;
      // dwarf_get_units understands DWARF 5 unit headers (clang's default).
      Dwarf_CU* unit = nullptr;
      Dwarf_Die cu;
      while (dwarf_get_units(dwarf, unit, &unit, nullptr, nullptr, &cu, nullptr) == 0)
        cus.push_back(cu);
    }
    for (auto& cu : cus) {
      if (dwarf_haspc(&cu, addr) > 0) {
        *out = cu;
        return true;
      }
    }
    return false;
  }
};

ElfSymbolizer::ElfSymbolizer(const std::string& path)
    : path_(path), impl_(std::make_unique<Impl>()) {
  impl_->file = std::make_unique<ElfFile>(path);
  impl_->elf = impl_->file->get();

  std::size_t phnum = 0;
  elf_getphdrnum(impl_->elf, &phnum);
  for (std::size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(impl_->elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD)
      impl_->segments.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
  }

  bool have_symtab = false;
  for (int pass = 0; pass < 2; ++pass) {
    // .symtab has every function; .dynsym only the exported ones, so it is
    // the fallback for stripped libraries.
    Elf_Scn* scn = nullptr;
    while ((scn = elf_nextscn(impl_->elf, scn)) != nullptr) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh)) continue;
      if (sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM)) continue;
      if (pass == 1 && have_symtab) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!data || sh.sh_entsize == 0) continue;
      std::size_t count = sh.sh_size / sh.sh_entsize;
      for (std::size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(data, static_cast<int>(i), &sym)) continue;
        int type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_value == 0) continue;
        const char* name = elf_strptr(impl_->elf, sh.sh_link, sym.st_name);
        if (!name || !*name) continue;
        impl_->symbols.push_back({sym.st_value, sym.st_size, name});
        if (pass == 0) have_symtab = true;
      }
    }
  }
  std::sort(impl_->symbols.begin(), impl_->symbols.end(), [](const Symbol& a, const Symbol& b) {
    return a.address != b.address ? a.address < b.address : a.size > b.size;
  });
  impl_->dwarf = dwarf_begin_elf(impl_->elf, DWARF_C_READ, nullptr);
}

ElfSymbolizer::~ElfSymbolizer() = default;

bool ElfSymbolizer::has_dwarf() const { return impl_->dwarf != nullptr; }

std::optional<std::uint64_t> ElfSymbolizer::vaddr_for_offset(std::uint64_t offset) const {
  for (const auto& s : impl_->segments)
    if (offset >= s.offset && offset < s.offset + s.filesz) return offset - s.offset + s.vaddr;
  return std::nullopt;
}

std::optional<std::uint64_t> ElfSymbolizer::find_symbol(const std::string& name) const {
  for (const auto& s : impl_->symbols)
    if (s.name == name || demangle(s.name) == name) return s.address;
  return std::nullopt;
}

std::optional<Symbolization> ElfSymbolizer::symbolize(std::uint64_t vaddr) const {
  const auto& syms = impl_->symbols;
  auto it = std::upper_bound(syms.begin(), syms.end(), vaddr,
                             [](std::uint64_t a, const Symbol& s) { return a < s.address; });
  std::optional<Symbolization> out;
  if (it != syms.begin()) {
    const Symbol& s = *std::prev(it);
    // A zero size (hand-written assembly) extends to the next symbol.
    bool inside =
        s.size == 0 ? (it == syms.end() || vaddr < it->address) : vaddr < s.address + s.size;
    if (inside) {
      out = Symbolization{};
      out->symbol = demangle(s.name);
      out->function = out->symbol;
      out->symbol_address = s.address;
    }
  }
  if (!out || !impl_->dwarf) return out;
  Dwarf_Die cu;
  if (!impl_->find_cu(vaddr, &cu)) return out;
  Dwarf_Die inlined;
  bool found_inline = false;
  find_innermost_inline(&cu, vaddr, &inlined, &found_inline);
  if (found_inline) {
    std::string name = die_function_name(&inlined);
    if (!name.empty()) {
      out->function = name;
      out->inlined = true;
    }
  }
  return out;
}

}  // namespace perfci
