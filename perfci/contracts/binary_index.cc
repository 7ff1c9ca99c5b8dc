#include "perfci/contracts/binary_index.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "perfci/contracts/binary_error.h"
#include "perfci/util/demangle.h"

namespace perfci::contracts {
namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Words that normalisation may drop or that may be spelled as literals.
bool removable_word(std::string_view w) {
  constexpr std::array<std::string_view, 9> kWords = {
      "int", "signed", "unsigned", "long", "short", "char", "const", "volatile", "operator"};
  if (std::isdigit(static_cast<unsigned char>(w[0]))) return true;
  return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
}

}  // namespace

std::string required_token(std::string_view pattern) {
  std::string best;
  for (size_t i = 0; i < pattern.size();) {
    if (!is_ident(pattern[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pattern.size() && is_ident(pattern[j])) ++j;
    std::string_view word = pattern.substr(i, j - i);
    if (!removable_word(word) && word.size() > best.size()) best = std::string(word);
    i = j;
  }
  return best;
}

BinaryIndex::BinaryIndex(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    throw BinaryError(fmt::format("binary {} does not exist", path));
  if (!S_ISREG(st.st_mode)) throw BinaryError(fmt::format("{} is not a regular file", path));
  elf_ = std::make_unique<ElfImage>(path);
  dwarf_ = dwarf_begin_elf(elf_->elf(), DWARF_C_READ, nullptr);
  if (dwarf_ == nullptr) {
    throw BinaryError(fmt::format(
        "{} has no DWARF debug info; contracts are read from DWARF, so build it with -g "
        "(CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo, or add -g to CMAKE_CXX_FLAGS_RELEASE) "
        "and do not strip it",
        path));
  }
  dwarf_index_ = std::make_unique<DwarfIndex>(dwarf_);
  if (dwarf_index_->functions().empty() && dwarf_index_->types().empty()) {
    dwarf_end(dwarf_);
    throw BinaryError(fmt::format(
        "{} has DWARF units but no functions or types in them; build it with -g", path));
  }
  scanner_ = std::make_unique<CodeScanner>(*elf_);
  symbol_names_.resize(elf_->functions().size());
  normalized_functions_.resize(dwarf_index_->functions().size());
  normalized_ready_.resize(dwarf_index_->functions().size(), false);
}

BinaryIndex::~BinaryIndex() {
  scanner_.reset();
  dwarf_index_.reset();
  if (dwarf_ != nullptr) dwarf_end(dwarf_);
}

const BinaryIndex::SymbolNames& BinaryIndex::names_of(size_t i) const {
  SymbolNames& n = symbol_names_[i];
  if (!n.ready) {
    std::string full = demangle(elf_->functions()[i].name);
    n.base = function_base_name(full);
    n.normalized = normalize_name(n.base);
    n.signature = normalize_name(strip_clone_suffixes(full));
    n.ready = true;
  }
  return n;
}

const std::string& BinaryIndex::symbol_base_name(const ElfFunctionSymbol& symbol) const {
  return names_of(static_cast<size_t>(&symbol - elf_->functions().data())).base;
}

std::string BinaryIndex::symbol_display_name(const ElfFunctionSymbol& symbol) const {
  return demangle(symbol.name);
}

const std::string& BinaryIndex::normalized_function_name(uint32_t index) const {
  if (!normalized_ready_[index]) {
    normalized_functions_[index] = normalize_name(dwarf_index_->name_of(index));
    normalized_ready_[index] = true;
  }
  return normalized_functions_[index];
}

FunctionMatches BinaryIndex::find_functions(const NamePattern& pattern) const {
  FunctionMatches m;
  std::string token = required_token(pattern.normalized());
  std::set<std::string> names;
  const auto& functions = dwarf_index_->functions();
  std::vector<bool> matched(functions.size(), false);
  for (uint32_t i = 0; i < functions.size(); ++i) {
    const std::string& raw = dwarf_index_->name_of(i);
    if (raw.empty() || (!token.empty() && raw.find(token) == std::string::npos)) continue;
    std::string signature =
        functions[i].linkage.empty()
            ? std::string()
            : normalize_name(strip_clone_suffixes(demangle(functions[i].linkage)));
    if (!pattern.matches(normalized_function_name(i), signature)) continue;
    matched[i] = true;
    names.insert(raw);
    (functions[i].range_count > 0 ? m.concrete : m.declared).push_back(i);
  }
  for (const InlinedCopy& copy : dwarf_index_->inlined()) {
    auto origin = dwarf_index_->function_by_key(copy.origin);
    if (origin && matched[*origin]) m.inlined.push_back(&copy);
  }
  const auto& symbols = elf_->functions();
  for (size_t i = 0; i < symbols.size(); ++i) {
    if (!token.empty() && symbols[i].name.find(token) == std::string_view::npos) continue;
    const SymbolNames& n = names_of(i);
    if (!pattern.matches(n.normalized, n.signature)) continue;
    m.symbols.push_back(&symbols[i]);
    names.insert(n.base);
  }
  // Imports reached through the PLT or the GOT are known only by name.
  for (std::string_view import : elf_->import_names()) {
    if (!token.empty() && import.find(token) == std::string_view::npos) continue;
    std::string full = demangle(import);
    std::string base = function_base_name(full);
    if (!pattern.matches(normalize_name(base), normalize_name(full))) continue;
    m.imports.push_back(base);
    names.insert(base);
  }
  m.names.assign(names.begin(), names.end());
  return m;
}

std::string BinaryIndex::describe_code(uint64_t addr) const {
  if (auto f = dwarf_index_->function_containing(addr)) {
    const std::string& name = dwarf_index_->name_of(*f);
    if (!name.empty()) {
      // Name the clone or part when the symbol says which one it is.
      if (const ElfFunctionSymbol* sym = elf_->function_containing(addr);
          sym && is_clone_or_part(sym->name))
        return fmt::format("{} ({})", name, sym->name.substr(sym->name.find('.')));
      return name;
    }
  }
  if (const ElfFunctionSymbol* sym = elf_->function_containing(addr)) return demangle(sym->name);
  return fmt::format("{:#x}", addr);
}

std::string BinaryIndex::target_base_name(const ControlTransfer& t) const {
  if (!t.import_name.empty()) return function_base_name(demangle(t.import_name));
  auto at = elf_->functions_starting_at(t.target);
  if (!at.empty()) return symbol_base_name(at.front());
  if (auto f = dwarf_index_->function_containing(t.target)) return dwarf_index_->name_of(*f);
  return {};
}

std::string BinaryIndex::describe_target(const ControlTransfer& t) const {
  std::string name = target_base_name(t);
  if (name.empty()) name = fmt::format("{:#x}", t.target);
  return name;
}

}  // namespace perfci::contracts
