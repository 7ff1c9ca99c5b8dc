#include "perfci/contracts/code_scanner.h"

#include <capstone/capstone.h>

#include <cstring>
#include <memory>

#include "perfci/contracts/binary_error.h"

namespace perfci::contracts {
namespace {

struct InsnDeleter {
  void operator()(cs_insn* insn) const { cs_free(insn, 1); }
};

// The absolute target of a rip-relative memory operand or an immediate.
struct Operand {
  bool immediate = false;
  bool rip_memory = false;
  uint64_t value = 0;
};

Operand branch_operand(const cs_insn& insn) {
  Operand op;
  const cs_x86& x86 = insn.detail->x86;
  if (x86.op_count != 1) return op;
  const cs_x86_op& o = x86.operands[0];
  if (o.type == X86_OP_IMM) {
    op.immediate = true;
    op.value = static_cast<uint64_t>(o.imm);
  } else if (o.type == X86_OP_MEM && o.mem.base == X86_REG_RIP && o.mem.index == X86_REG_INVALID) {
    op.rip_memory = true;
    op.value = insn.address + insn.size + static_cast<uint64_t>(o.mem.disp);
  }
  return op;
}

bool in_group(const cs_insn& insn, uint8_t group) {
  for (uint8_t i = 0; i < insn.detail->groups_count; ++i)
    if (insn.detail->groups[i] == group) return true;
  return false;
}

template <typename Map>
void forget_written_registers(const cs_insn& insn, Map* loaded) {
  if (loaded->empty()) return;
  const cs_x86& x86 = insn.detail->x86;
  for (uint8_t i = 0; i < x86.op_count; ++i)
    if (x86.operands[i].type == X86_OP_REG && (x86.operands[i].access & CS_AC_WRITE))
      loaded->erase(x86.operands[i].reg);
  for (uint8_t i = 0; i < insn.detail->regs_write_count; ++i)
    loaded->erase(insn.detail->regs_write[i]);
}

// The System V caller-saved registers do not survive a call.
template <typename Map>
void forget_call_clobbered(Map* loaded) {
  for (unsigned reg : {X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RSI, X86_REG_RDI, X86_REG_R8,
                       X86_REG_R9, X86_REG_R10, X86_REG_R11})
    loaded->erase(reg);
}

}  // namespace

CodeScanner::CodeScanner(const ElfImage& image) : image_(image) {
  csh handle = 0;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
    throw BinaryError("capstone cannot open x86-64");
  cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  handle_ = handle;
  for (std::string_view name : {".plt", ".plt.sec", ".plt.got"}) decode_plt_section(name);
}

CodeScanner::~CodeScanner() {
  csh handle = handle_;
  cs_close(&handle);
}

bool CodeScanner::resolve_slot(uint64_t slot, Import* out) const {
  if (const GotSlot* g = image_.got_slot(slot)) {
    *out = Import{g->import_name, g->target};
    return true;
  }
  // Static executables and non-PIE builds may have GOT entries that the
  // linker filled in: read the slot itself.
  if (auto value = image_.read_u64(slot);
      value && *value != 0 && image_.function_containing(*value)) {
    *out = Import{{}, *value};
    return true;
  }
  return false;
}

void CodeScanner::decode_plt_section(std::string_view name) {
  const ElfSection* section = image_.section_named(name);
  if (section == nullptr) return;
  std::unique_ptr<cs_insn, InsnDeleter> insn(cs_malloc(handle_));
  const uint8_t* code = section->bytes.data();
  size_t size = section->bytes.size();
  uint64_t addr = section->addr;
  uint64_t previous_endbr = 0;
  while (size > 0) {
    if (!cs_disasm_iter(handle_, &code, &size, &addr, insn.get())) {
      ++code;  // padding that capstone cannot decode
      --size;
      ++addr;
      continue;
    }
    if (std::strcmp(insn->mnemonic, "endbr64") == 0) {
      previous_endbr = insn->address;
      continue;
    }
    if (insn->id == X86_INS_JMP) {
      Operand op = branch_operand(*insn);
      Import import;
      if (op.rip_memory && resolve_slot(op.value, &import)) {
        plt_stubs_[insn->address] = import;
        // With IBT the call lands on the endbr64 before the jump.
        if (previous_endbr != 0) plt_stubs_[previous_endbr] = import;
      }
    }
    previous_endbr = 0;
  }
}

std::vector<ControlTransfer> CodeScanner::transfers(std::span<const AddrRange> scan,
                                                    std::span<const AddrRange> own) const {
  std::vector<ControlTransfer> out;
  std::unique_ptr<cs_insn, InsnDeleter> insn(cs_malloc(handle_));
  for (const AddrRange& range : scan) {
    std::span<const uint8_t> bytes = image_.bytes_at(range.lo);
    if (bytes.empty()) continue;
    const uint8_t* code = bytes.data();
    size_t size = std::min<uint64_t>(bytes.size(), range.hi - range.lo);
    uint64_t addr = range.lo;
    // clang hoists a -fno-plt GOT load into a register and calls through
    // it ("mov r14, [rip+slot]; call r14"): registers loaded from a slot,
    // forgotten when written again. A linear approximation of the flow.
    std::unordered_map<unsigned, Import> loaded;
    while (size > 0) {
      if (!cs_disasm_iter(handle_, &code, &size, &addr, insn.get())) {
        ++code;
        --size;
        ++addr;
        continue;
      }
      bool is_call = in_group(*insn, CS_GRP_CALL);
      bool is_jump = !is_call && in_group(*insn, CS_GRP_JUMP);
      if (!is_call && !is_jump) {
        forget_written_registers(*insn, &loaded);
        if (insn->id == X86_INS_MOV && insn->detail->x86.op_count == 2) {
          const cs_x86_op& dst = insn->detail->x86.operands[0];
          const cs_x86_op& src = insn->detail->x86.operands[1];
          Import import;
          if (dst.type == X86_OP_REG && dst.size == 8 && src.type == X86_OP_MEM &&
              src.mem.base == X86_REG_RIP && src.mem.index == X86_REG_INVALID &&
              resolve_slot(insn->address + insn->size + static_cast<uint64_t>(src.mem.disp),
                           &import))
            loaded[dst.reg] = import;
        }
        continue;
      }
      Operand op = branch_operand(*insn);
      if (const cs_x86& x86 = insn->detail->x86;
          x86.op_count == 1 && x86.operands[0].type == X86_OP_REG) {
        auto it = loaded.find(x86.operands[0].reg);
        if (it != loaded.end()) {
          ControlTransfer t;
          t.site = insn->address;
          t.kind = is_call ? TransferKind::kCall : TransferKind::kTailJump;
          t.via = TransferVia::kGot;
          t.import_name = it->second.name;
          t.target = it->second.target;
          out.push_back(t);
        }
      }
      if (is_call) forget_call_clobbered(&loaded);
      ControlTransfer t;
      t.site = insn->address;
      t.kind = is_call ? TransferKind::kCall : TransferKind::kTailJump;
      if (op.immediate) {
        if (is_jump && any_contains(own, op.value)) continue;
        if (auto stub = plt_stubs_.find(op.value); stub != plt_stubs_.end()) {
          t.via = TransferVia::kPlt;
          t.import_name = stub->second.name;
          t.target = stub->second.target;
        } else {
          t.target = op.value;
          // A jump elsewhere is a tail call only when it lands on an entry.
          if (is_jump && image_.functions_starting_at(op.value).empty()) continue;
        }
      } else if (op.rip_memory) {
        Import import;
        if (!resolve_slot(op.value, &import)) continue;
        t.via = TransferVia::kGot;
        t.import_name = import.name;
        t.target = import.target;
      } else {
        continue;  // through a register: the target is not in the code
      }
      out.push_back(t);
    }
  }
  return out;
}

}  // namespace perfci::contracts
