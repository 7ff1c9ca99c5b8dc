// returns_in_registers: on System V x86-64 a function returns through a
// hidden pointer (sret, passed in RDI) when its return type is larger than
// 16 bytes or is not trivially copyable. Decided from the return type in
// DWARF (clang's DW_AT_calling_convention when present), and, where an
// out-of-line copy exists, from the evidence at its entry: if the first
// integer argument arrives in RSI, RDI carries the hidden pointer.
#include <dwarf.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <set>

#include "perfci/contracts/contract_checks.h"

namespace perfci::contracts {
namespace {

constexpr uint64_t kMaxRegisterReturn = 16;

bool flag(Dwarf_Die* die, unsigned name) {
  Dwarf_Attribute attr;
  bool value = false;
  return dwarf_attr_integrate(die, name, &attr) != nullptr && dwarf_formflag(&attr, &value) == 0 &&
         value;
}

std::optional<Dwarf_Word> udata(Dwarf_Die* die, unsigned name) {
  Dwarf_Attribute attr;
  Dwarf_Word value = 0;
  if (dwarf_attr_integrate(die, name, &attr) == nullptr || dwarf_formudata(&attr, &value) != 0)
    return std::nullopt;
  return value;
}

bool type_of(Dwarf_Die* die, Dwarf_Die* out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, DW_AT_type, &attr) != nullptr &&
         dwarf_formref_die(&attr, out) != nullptr;
}

// Through typedefs and cv-qualifiers to the type itself; a declaration that
// points at a type unit is replaced by its definition.
Dwarf_Die strip(Dwarf_Die die) {
  for (int hops = 0; hops < 32; ++hops) {
    int tag = dwarf_tag(&die);
    Dwarf_Die next;
    if ((tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
         tag == DW_TAG_restrict_type) &&
        type_of(&die, &next)) {
      die = next;
      continue;
    }
    Dwarf_Attribute sig;
    if (dwarf_attr(&die, DW_AT_signature, &sig) != nullptr &&
        dwarf_formref_die(&sig, &next) != nullptr) {
      die = next;
      continue;
    }
    break;
  }
  return die;
}

std::string type_name(Dwarf_Die* die) {
  const char* n = dwarf_diename(die);
  return n ? n : "(unnamed type)";
}

bool is_class(int tag) {
  return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
}

std::string_view template_base(std::string_view name) { return name.substr(0, name.find('<')); }

// Why the class is not trivially copyable, or "" when it is (as far as
// DWARF shows: implicit members are artificial, defaulted ones marked).
std::string nontrivial_reason(Dwarf_Die* cls, int depth) {
  if (depth > 8) return {};
  std::string name = type_name(cls);
  Dwarf_Die child;
  if (dwarf_child(cls, &child) != 0) return {};
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      if (flag(&child, DW_AT_artificial)) continue;
      if (udata(&child, DW_AT_virtuality).value_or(0) != 0)
        return fmt::format("{} has virtual functions", name);
      if (udata(&child, DW_AT_defaulted).value_or(0) == DW_DEFAULTED_in_class) continue;
      const char* fn = dwarf_diename(&child);
      if (fn == nullptr) continue;
      std::string_view f(fn);
      if (f.starts_with("~")) return fmt::format("{} has a user-provided destructor", name);
      if (f != template_base(name)) continue;
      // A constructor taking (this, const T&) or (this, T&&) copies or moves.
      std::vector<Dwarf_Die> params;
      Dwarf_Die p;
      if (dwarf_child(&child, &p) == 0) {
        do {
          if (dwarf_tag(&p) == DW_TAG_formal_parameter && !flag(&p, DW_AT_artificial))
            params.push_back(p);
        } while (dwarf_siblingof(&p, &p) == 0);
      }
      Dwarf_Die ref, pointee;
      if (params.size() == 1 && type_of(&params[0], &ref) &&
          (dwarf_tag(&ref) == DW_TAG_reference_type ||
           dwarf_tag(&ref) == DW_TAG_rvalue_reference_type) &&
          type_of(&ref, &pointee)) {
        Dwarf_Die target = strip(pointee);
        if (type_name(&target) == name)
          return fmt::format("{} has a user-provided copy or move constructor", name);
      }
    } else if (tag == DW_TAG_inheritance ||
               (tag == DW_TAG_member && !flag(&child, DW_AT_external) &&
                !flag(&child, DW_AT_declaration))) {
      Dwarf_Die t;
      if (!type_of(&child, &t)) continue;
      Dwarf_Die member = strip(t);
      while (dwarf_tag(&member) == DW_TAG_array_type && type_of(&member, &t)) member = strip(t);
      if (is_class(dwarf_tag(&member))) {
        std::string inner = nontrivial_reason(&member, depth + 1);
        if (!inner.empty()) return inner;
      }
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return {};
}

struct Assessment {
  bool hidden_pointer = false;
  std::string reason;
};

Assessment assess_type(Dwarf_Die* function) {
  Dwarf_Die t;
  if (!type_of(function, &t)) return {false, "returns void"};
  Dwarf_Die type = strip(t);
  std::string name = type_name(&type);
  Dwarf_Word size = 0;
  bool sized = dwarf_aggregate_size(&type, &size) == 0;
  if (!is_class(dwarf_tag(&type))) {
    if (sized && size > kMaxRegisterReturn)
      return {true, fmt::format("returns {} of {} bytes", name, size)};
    return {false, fmt::format("returns {}", name)};
  }
  if (!sized) return {false, fmt::format("returns {} whose size DWARF does not give", name)};
  if (auto cc = udata(&type, DW_AT_calling_convention)) {
    if (*cc == DW_CC_pass_by_reference)
      return {true, fmt::format("returns {} ({} bytes), which the compiler passes by reference",
                                name, size)};
  }
  if (size > kMaxRegisterReturn)
    return {true, fmt::format("returns {} of {} bytes, over the {} that fit in RAX:RDX", name, size,
                              kMaxRegisterReturn)};
  if (std::string why = nontrivial_reason(&type, 0); !why.empty())
    return {true,
            fmt::format("returns {} ({} bytes), not trivially copyable: {}", name, size, why)};
  return {false, fmt::format("returns {} ({} bytes, trivially copyable)", name, size)};
}

// Integer class for the System V classification: pointers, references,
// integers, enums.
bool integer_class(Dwarf_Die* param) {
  Dwarf_Die t;
  if (!type_of(param, &t)) return false;
  Dwarf_Die type = strip(t);
  switch (dwarf_tag(&type)) {
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
    case DW_TAG_enumeration_type:
      return true;
    case DW_TAG_base_type: {
      auto enc = udata(&type, DW_AT_encoding);
      Dwarf_Word size = 0;
      return enc && *enc != DW_ATE_float && *enc != DW_ATE_complex_float &&
             dwarf_aggregate_size(&type, &size) == 0 && size <= 8;
    }
    default:
      return false;
  }
}

// true: the first integer argument arrives in RSI (so RDI holds the hidden
// pointer); false: it arrives in RDI; nullopt: DWARF does not say.
std::optional<bool> entry_evidence(Dwarf_Die* function) {
  Dwarf_Addr entry = 0;
  if (dwarf_entrypc(function, &entry) != 0 && dwarf_lowpc(function, &entry) != 0)
    return std::nullopt;
  Dwarf_Die p;
  if (dwarf_child(function, &p) != 0) return std::nullopt;
  do {
    if (dwarf_tag(&p) != DW_TAG_formal_parameter) continue;
    if (!integer_class(&p)) return std::nullopt;  // the first one decides
    Dwarf_Attribute loc;
    if (dwarf_attr(&p, DW_AT_location, &loc) == nullptr) return std::nullopt;
    Dwarf_Op* expr = nullptr;
    size_t len = 0;
    if (dwarf_getlocation_addr(&loc, entry, &expr, &len, 1) != 1 || len < 1) return std::nullopt;
    if (expr[0].atom == DW_OP_reg5) return false;  // RDI
    if (expr[0].atom == DW_OP_reg4) return true;   // RSI
    return std::nullopt;
  } while (dwarf_siblingof(&p, &p) == 0);
  return std::nullopt;
}

}  // namespace

ContractResult check_returns_in_registers(const BinaryIndex& bin, const Contract& contract) {
  ContractResult result;
  result.contract = contract;
  FunctionMatches m = bin.find_functions(NamePattern(contract.function));
  if (m.concrete.empty() && m.declared.empty()) {
    result.verdict = Verdict::kError;
    result.message =
        m.empty() ? fmt::format("{} names no function in the binary", contract.function)
                  : fmt::format("{} has no DWARF description (build with -g)", contract.function);
    return result;
  }
  const DwarfIndex& dw = bin.dwarf();
  std::vector<uint32_t> candidates = m.concrete.empty() ? m.declared : m.concrete;
  std::set<std::string> broken, fine;
  for (uint32_t f : candidates) {
    Dwarf_Die die;
    if (!dw.die_of(dw.functions()[f].key, &die)) continue;
    Assessment a = assess_type(&die);
    std::string name = dw.name_of(f);
    if (dw.functions()[f].range_count > 0) {
      if (auto rsi = entry_evidence(&die)) {
        if (*rsi && !a.hidden_pointer)
          a = {true, a.reason +
                         "; yet its first argument arrives in RSI, so RDI carries a hidden return "
                         "pointer"};
        else if (!*rsi && a.hidden_pointer)
          a = {false,
               a.reason +
                   "; yet its first argument arrives in RDI, so there is no hidden return pointer"};
        else
          a.reason +=
              *rsi ? "; first argument in RSI at entry" : "; first argument in RDI at entry";
      }
    } else {
      a.reason += " (no out-of-line copy; judged from the type)";
    }
    (a.hidden_pointer ? broken : fine).insert(fmt::format("{} {}", name, a.reason));
  }
  if (broken.empty() && fine.empty()) {
    result.verdict = Verdict::kError;
    result.message = fmt::format("cannot read the DWARF of {}", contract.function);
  } else if (!broken.empty()) {
    result.verdict = Verdict::kBroken;
    result.message =
        fmt::format("returns through a hidden pointer (sret): {}", fmt::join(broken, "; "));
  } else {
    result.verdict = Verdict::kOk;
    result.message = fmt::format("{}", fmt::join(fine, "; "));
  }
  return result;
}

}  // namespace perfci::contracts
