// Finds the calls and tail jumps that leave a piece of machine code, with
// capstone. DWARF call-site entries are incomplete (clang 14 omits them for
// external callees), so the instructions are the authority for "contains a
// call". Calls through the PLT and through GOT slots (-fno-plt) are resolved
// to the imported name.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "perfci/contracts/address_range.h"
#include "perfci/contracts/elf_image.h"

namespace perfci::contracts {

enum class TransferKind { kCall, kTailJump };
enum class TransferVia { kDirect, kPlt, kGot };

struct ControlTransfer {
  uint64_t site = 0;             // address of the call or jump instruction
  uint64_t target = 0;           // code address when known inside this binary, else 0
  std::string_view import_name;  // the symbol behind a PLT stub or GOT slot
  TransferKind kind = TransferKind::kCall;
  TransferVia via = TransferVia::kDirect;
};

class CodeScanner {
 public:
  explicit CodeScanner(const ElfImage& image);
  ~CodeScanner();
  CodeScanner(const CodeScanner&) = delete;
  CodeScanner& operator=(const CodeScanner&) = delete;

  // Every call in `scan`, and every jump from `scan` to a function entry or
  // import outside `own` (the whole function the code belongs to, so that
  // jumps between a function's hot and .cold parts are not tail calls).
  std::vector<ControlTransfer> transfers(std::span<const AddrRange> scan,
                                         std::span<const AddrRange> own) const;

 private:
  struct Import {
    std::string_view name;
    uint64_t target = 0;
  };
  void decode_plt_section(std::string_view name);
  bool resolve_slot(uint64_t slot, Import* out) const;

  const ElfImage& image_;
  size_t handle_ = 0;  // capstone's csh
  std::unordered_map<uint64_t, Import> plt_stubs_;
};

}  // namespace perfci::contracts
