// inline: the callee is inlined into the caller (DWARF shows at least one
// inlined copy under it) and no call or tail jump to an out-of-line copy is
// left anywhere in the caller: its .cold/.part pieces, its .constprop/.isra
// clones and the copies of the caller inlined elsewhere included.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "perfci/contracts/contract_checks.h"

namespace perfci::contracts {
namespace {

// A stretch of caller code, and the whole function it belongs to (so jumps
// inside that function are not mistaken for tail calls).
struct Piece {
  std::vector<AddrRange> scan;
  std::vector<AddrRange> own;
};

std::vector<AddrRange> symbol_range(const ElfFunctionSymbol& s) {
  return {AddrRange{s.addr, s.addr + std::max<uint64_t>(s.size, 1)}};
}

std::vector<Piece> caller_pieces(const BinaryIndex& bin, const FunctionMatches& caller) {
  const DwarfIndex& dw = bin.dwarf();
  std::vector<AddrRange> all;
  for (uint32_t f : caller.concrete)
    for (const AddrRange& r : dw.ranges_of(dw.functions()[f])) all.push_back(r);
  std::vector<AddrRange> symbols_only;
  for (const ElfFunctionSymbol* s : caller.symbols) {
    if (any_contains(all, s->addr)) continue;
    symbols_only.push_back(symbol_range(*s).front());
  }
  all.insert(all.end(), symbols_only.begin(), symbols_only.end());

  std::vector<Piece> pieces;
  for (uint32_t f : caller.concrete) {
    auto r = dw.ranges_of(dw.functions()[f]);
    pieces.push_back(Piece{{r.begin(), r.end()}, all});
  }
  for (const AddrRange& r : symbols_only) pieces.push_back(Piece{{r}, all});
  for (const InlinedCopy* copy : caller.inlined) {
    auto r = dw.ranges_of(*copy);
    auto owner = dw.ranges_of(dw.functions()[copy->owner]);
    Piece p{{r.begin(), r.end()}, {owner.begin(), owner.end()}};
    p.own.insert(p.own.end(), all.begin(), all.end());
    pieces.push_back(std::move(p));
  }
  return pieces;
}

std::vector<ControlTransfer> transfers_of(const BinaryIndex& bin,
                                          const std::vector<Piece>& pieces) {
  std::vector<ControlTransfer> out;
  for (const Piece& p : pieces) {
    auto t = bin.scanner().transfers(p.scan, p.own);
    out.insert(out.end(), t.begin(), t.end());
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.site < b.site; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const auto& a, const auto& b) { return a.site == b.site; }),
            out.end());
  return out;
}

// Whether a transfer lands on the callee.
class CalleeTargets {
 public:
  CalleeTargets(const BinaryIndex& bin, const FunctionMatches& callee, const NamePattern& pattern)
      : bin_(bin), pattern_(pattern) {
    const DwarfIndex& dw = bin.dwarf();
    for (uint32_t f : callee.concrete)
      for (const AddrRange& r : dw.ranges_of(dw.functions()[f])) ranges_.push_back(r);
    for (const ElfFunctionSymbol* s : callee.symbols) ranges_.push_back(symbol_range(*s).front());
  }

  bool hits(const ControlTransfer& t) const {
    if (t.target != 0 && any_contains(ranges_, t.target)) return true;
    if (!t.import_name.empty()) {
      std::string base = bin_.target_base_name(t);
      return pattern_.matches(normalize_name(base));
    }
    return false;
  }

 private:
  const BinaryIndex& bin_;
  const NamePattern& pattern_;
  std::vector<AddrRange> ranges_;
};

bool copy_inside(const DwarfIndex& dw, const InlinedCopy& inner, const InlinedCopy& outer) {
  if (inner.owner != outer.owner || inner.depth <= outer.depth) return false;
  auto inner_ranges = dw.ranges_of(inner);
  if (inner_ranges.empty()) return false;
  return any_contains(dw.ranges_of(outer), inner_ranges.front().lo);
}

std::vector<InlinedSite> inlined_sites(const BinaryIndex& bin, const FunctionMatches& caller,
                                       const FunctionMatches& callee) {
  const DwarfIndex& dw = bin.dwarf();
  std::set<uint32_t> caller_owners(caller.concrete.begin(), caller.concrete.end());
  std::vector<InlinedSite> sites;
  for (const InlinedCopy* copy : callee.inlined) {
    bool inside = caller_owners.count(copy->owner) > 0;
    for (size_t i = 0; !inside && i < caller.inlined.size(); ++i)
      inside = copy_inside(dw, *copy, *caller.inlined[i]);
    if (!inside) continue;
    InlinedSite site;
    auto r = dw.ranges_of(*copy);
    site.ranges.assign(r.begin(), r.end());
    site.depth = copy->depth;
    site.function = r.empty() ? dw.name_of(copy->owner) : bin.describe_code(r.front().lo);
    sites.push_back(std::move(site));
  }
  return sites;
}

// The code of the function entered at `addr`: its DWARF ranges (hot and
// cold), or the extent of its symbol.
Piece function_at(const BinaryIndex& bin, uint64_t addr) {
  const DwarfIndex& dw = bin.dwarf();
  Piece p;
  for (uint32_t f : dw.functions_at(addr)) {
    auto r = dw.ranges_of(dw.functions()[f]);
    p.scan.insert(p.scan.end(), r.begin(), r.end());
  }
  if (p.scan.empty()) {
    auto syms = bin.elf().functions_starting_at(addr);
    if (!syms.empty()) p.scan = symbol_range(syms.front());
  }
  p.own = p.scan;
  return p;
}

bool inlines_callee(const BinaryIndex& bin, const FunctionMatches& callee, uint64_t entry) {
  std::vector<uint32_t> owners = bin.dwarf().functions_at(entry);
  for (const InlinedCopy* copy : callee.inlined)
    if (std::find(owners.begin(), owners.end(), copy->owner) != owners.end()) return true;
  return false;
}

// Breadth-first over out-of-line calls from the caller, a few levels deep,
// for the function that stands between the caller and the callee.
std::string find_intermediate(const BinaryIndex& bin,
                              const std::vector<ControlTransfer>& from_caller,
                              const FunctionMatches& caller, const FunctionMatches& callee,
                              const CalleeTargets& targets, const std::string& caller_name,
                              const std::string& callee_name) {
  constexpr int kMaxDepth = 3;
  constexpr size_t kMaxVisited = 2000;
  struct Node {
    uint64_t entry;
    int parent;  // index into nodes, -1 for a direct callee of the caller
    int depth;
  };
  std::vector<Node> nodes;
  std::set<uint64_t> visited;
  std::set<std::string> caller_names(caller.names.begin(), caller.names.end());
  std::deque<int> queue;
  auto enqueue = [&](const std::vector<ControlTransfer>& transfers, int parent, int depth) {
    for (const ControlTransfer& t : transfers) {
      if (t.target == 0 || visited.count(t.target) || visited.size() >= kMaxVisited) continue;
      if (caller_names.count(bin.target_base_name(t))) continue;  // the caller's own pieces
      visited.insert(t.target);
      nodes.push_back(Node{t.target, parent, depth});
      queue.push_back(static_cast<int>(nodes.size() - 1));
    }
  };
  enqueue(from_caller, -1, 1);
  while (!queue.empty()) {
    int index = queue.front();
    queue.pop_front();
    Node node = nodes[index];
    Piece code = function_at(bin, node.entry);
    if (code.scan.empty()) continue;
    std::vector<ControlTransfer> transfers = bin.scanner().transfers(code.scan, code.own);
    std::string how;
    if (inlines_callee(bin, callee, node.entry)) {
      how = "inlines";
    } else {
      for (const ControlTransfer& t : transfers)
        if (targets.hits(t)) how = "calls";
    }
    if (!how.empty()) {
      std::vector<std::string> chain;
      for (int i = index; i >= 0; i = nodes[i].parent)
        chain.push_back(bin.describe_code(nodes[i].entry));
      std::reverse(chain.begin(), chain.end());
      std::string text = fmt::format("{} calls {} out of line", caller_name, chain.front());
      for (size_t i = 1; i < chain.size(); ++i) text += fmt::format(", which calls {}", chain[i]);
      return text + fmt::format(", which {} {}", how, callee_name);
    }
    if (node.depth < kMaxDepth) enqueue(transfers, index, node.depth + 1);
  }
  return {};
}

std::string site_text(const CallSite& c, const std::string& caller_name) {
  std::string s = fmt::format("{:#x}", c.address);
  std::vector<std::string> notes;
  // Name the clone, the .cold part or the function the caller was inlined into.
  if (c.in_function != caller_name) notes.push_back("in " + c.in_function);
  if (c.kind == TransferKind::kTailJump) notes.push_back("tail jump");
  if (c.via == TransferVia::kPlt) notes.push_back("via PLT");
  if (c.via == TransferVia::kGot) notes.push_back("via GOT");
  if (!notes.empty()) s += fmt::format(" ({})", fmt::join(notes, ", "));
  return s;
}

}  // namespace

ContractResult check_inline(const BinaryIndex& bin, const Contract& contract) {
  ContractResult result;
  result.contract = contract;
  NamePattern caller_pattern(contract.caller);
  NamePattern callee_pattern(contract.callee);
  FunctionMatches caller = bin.find_functions(caller_pattern);
  FunctionMatches callee = bin.find_functions(callee_pattern);
  if (caller.concrete.empty() && caller.symbols.empty() && caller.inlined.empty()) {
    result.verdict = Verdict::kError;
    result.message = caller.empty()
                         ? fmt::format("caller {} names no function in the binary", contract.caller)
                         : fmt::format("caller {} has no code in the binary", contract.caller);
    return result;
  }
  if (callee.empty()) {
    result.verdict = Verdict::kError;
    result.message = fmt::format("callee {} names no function in the binary", contract.callee);
    return result;
  }
  std::string caller_name = display_name(caller, contract.caller);
  std::string callee_name = display_name(callee, contract.callee);

  std::vector<Piece> pieces = caller_pieces(bin, caller);
  std::vector<ControlTransfer> transfers = transfers_of(bin, pieces);
  CalleeTargets targets(bin, callee, callee_pattern);
  for (const ControlTransfer& t : transfers) {
    if (!targets.hits(t)) continue;
    result.remaining_calls.push_back(
        CallSite{t.site, bin.describe_code(t.site), bin.describe_target(t), t.kind, t.via});
  }
  result.inlined_copies = inlined_sites(bin, caller, callee);

  if (!result.remaining_calls.empty()) {
    result.verdict = Verdict::kBroken;
    std::vector<std::string> where;
    for (const CallSite& c : result.remaining_calls) where.push_back(site_text(c, caller_name));
    size_t n = result.remaining_calls.size();
    result.message = fmt::format("{}: {} out-of-line call{} left in {} at {}", callee_name, n,
                                 n == 1 ? "" : "s", caller_name, fmt::join(where, ", "));
    if (!result.inlined_copies.empty())
      result.message += fmt::format(" ({} inlined cop{} besides)", result.inlined_copies.size(),
                                    result.inlined_copies.size() == 1 ? "y" : "ies");
    return result;
  }
  if (result.inlined_copies.empty()) {
    result.verdict = Verdict::kBroken;
    std::string between =
        find_intermediate(bin, transfers, caller, callee, targets, caller_name, callee_name);
    result.message =
        between.empty()
            ? fmt::format("{} is neither inlined into {} nor called from it", callee_name,
                          caller_name)
            : fmt::format("{} is not inlined into {}: {}", callee_name, caller_name, between);
    return result;
  }
  result.verdict = Verdict::kOk;
  size_t n = result.inlined_copies.size();
  result.message = fmt::format("{}: {} inlined cop{} in {}, no out-of-line call left", callee_name,
                               n, n == 1 ? "y" : "ies", caller_name);
  return result;
}

}  // namespace perfci::contracts
