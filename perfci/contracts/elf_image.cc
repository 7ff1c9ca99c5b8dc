#include "perfci/contracts/elf_image.h"

#include <elf.h>
#include <fmt/format.h>
#include <gelf.h>

#include <algorithm>
#include <cstring>

#include "perfci/contracts/binary_error.h"
#include "perfci/util/error.h"

namespace perfci::contracts {
namespace {

// ElfFile's errors are input errors about the binary: BinaryError here.
ElfFile open_binary(const std::string& path) {
  try {
    return ElfFile(path, ELF_C_READ_MMAP);
  } catch (const Error& e) {
    throw BinaryError(e.what());
  }
}

}  // namespace

ElfImage::ElfImage(const std::string& path) : file_(open_binary(path)) {
  // From here on file_ is a member: whatever throws, its destructor closes it.
  GElf_Ehdr ehdr;
  if (gelf_getehdr(elf(), &ehdr) == nullptr || ehdr.e_machine != EM_X86_64)
    throw BinaryError(fmt::format("{}: not an x86-64 ELF file", path));
  load_sections();
  load_symbols();
  load_relocations();
}

void ElfImage::load_sections() {
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf(), &shstrndx) != 0)
    throw BinaryError(fmt::format("{}: no section names", path()));
  for (Elf_Scn* scn = elf_nextscn(elf(), nullptr); scn != nullptr; scn = elf_nextscn(elf(), scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr) continue;
    if ((sh.sh_flags & SHF_ALLOC) == 0 || sh.sh_type != SHT_PROGBITS) continue;
    Elf_Data* data = elf_rawdata(scn, nullptr);
    if (data == nullptr || data->d_buf == nullptr) continue;
    const char* name = elf_strptr(elf(), shstrndx, sh.sh_name);
    sections_.push_back(ElfSection{name ? name : "",
                                   sh.sh_addr,
                                   {static_cast<const uint8_t*>(data->d_buf), data->d_size},
                                   (sh.sh_flags & SHF_EXECINSTR) != 0});
  }
}

void ElfImage::load_symbols() {
  for (Elf_Scn* scn = elf_nextscn(elf(), nullptr); scn != nullptr; scn = elf_nextscn(elf(), scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr) continue;
    if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || sh.sh_entsize == 0) continue;
    size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
      int type = GELF_ST_TYPE(sym.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
          sym.st_value == 0)
        continue;
      const char* name = elf_strptr(elf(), sh.sh_link, sym.st_name);
      if (name == nullptr || *name == '\0') continue;
      functions_.push_back(ElfFunctionSymbol{sym.st_value, sym.st_size, name});
    }
  }
  std::sort(functions_.begin(), functions_.end(), [](const auto& a, const auto& b) {
    return a.addr != b.addr ? a.addr < b.addr : a.name < b.name;
  });
  functions_.erase(std::unique(functions_.begin(), functions_.end(),
                               [](const auto& a, const auto& b) {
                                 return a.addr == b.addr && a.name == b.name;
                               }),
                   functions_.end());
}

void ElfImage::load_relocations() {
  for (Elf_Scn* scn = elf_nextscn(elf(), nullptr); scn != nullptr; scn = elf_nextscn(elf(), scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_RELA || sh.sh_entsize == 0) continue;
    // Only dynamic relocations describe what the loader puts into GOT slots.
    Elf_Scn* symscn = elf_getscn(elf(), sh.sh_link);
    GElf_Shdr symsh;
    if (symscn == nullptr || gelf_getshdr(symscn, &symsh) == nullptr || symsh.sh_type != SHT_DYNSYM)
      continue;
    Elf_Data* symdata = elf_getdata(symscn, nullptr);
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || symdata == nullptr) continue;
    size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < count; ++i) {
      GElf_Rela rela;
      if (gelf_getrela(data, static_cast<int>(i), &rela) == nullptr) continue;
      auto type = GELF_R_TYPE(rela.r_info);
      auto symidx = GELF_R_SYM(rela.r_info);
      if (type == R_X86_64_RELATIVE) {
        got_[rela.r_offset] = GotSlot{{}, static_cast<uint64_t>(rela.r_addend)};
        continue;
      }
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT && type != R_X86_64_64) continue;
      GElf_Sym sym;
      if (symidx == 0 || gelf_getsym(symdata, static_cast<int>(symidx), &sym) == nullptr) continue;
      const char* name = elf_strptr(elf(), symsh.sh_link, sym.st_name);
      if (name == nullptr || *name == '\0') continue;
      got_[rela.r_offset] = GotSlot{name, sym.st_shndx != SHN_UNDEF ? sym.st_value : 0};
    }
  }
}

std::span<const ElfFunctionSymbol> ElfImage::functions_starting_at(uint64_t addr) const {
  auto lo = std::lower_bound(functions_.begin(), functions_.end(), addr,
                             [](const ElfFunctionSymbol& s, uint64_t a) { return s.addr < a; });
  auto hi = lo;
  while (hi != functions_.end() && hi->addr == addr) ++hi;
  return {lo, hi};
}

const ElfFunctionSymbol* ElfImage::function_containing(uint64_t addr) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), addr,
                             [](uint64_t a, const ElfFunctionSymbol& s) { return a < s.addr; });
  // Symbols may nest (aliases, zero-sized labels): look back a few entries.
  for (int steps = 0; it != functions_.begin() && steps < 8; ++steps) {
    --it;
    if (addr >= it->addr && (addr < it->addr + it->size || (it->size == 0 && addr == it->addr)))
      return &*it;
  }
  return nullptr;
}

const ElfSection* ElfImage::section_named(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

std::span<const uint8_t> ElfImage::bytes_at(uint64_t addr) const {
  for (const auto& s : sections_)
    if (addr >= s.addr && addr < s.addr + s.bytes.size()) return s.bytes.subspan(addr - s.addr);
  return {};
}

std::optional<uint64_t> ElfImage::read_u64(uint64_t addr) const {
  auto bytes = bytes_at(addr);
  if (bytes.size() < 8) return std::nullopt;
  uint64_t v = 0;
  std::memcpy(&v, bytes.data(), 8);  // x86-64 is little-endian, like the file
  return v;
}

const GotSlot* ElfImage::got_slot(uint64_t slot_addr) const {
  auto it = got_.find(slot_addr);
  return it == got_.end() ? nullptr : &it->second;
}

std::vector<std::string_view> ElfImage::import_names() const {
  std::vector<std::string_view> names;
  for (const auto& [slot, g] : got_)
    if (!g.import_name.empty()) names.push_back(g.import_name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace perfci::contracts
