// Verdicts on fixture programs built with g++ and clang++, DWARF 4 and 5
// (tests/fixtures/contracts). Each contract is checked both ways: on the
// build that keeps it and on the one that breaks it.
#include "perfci/contracts/contract_checker.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "perfci/contracts/binary_error.h"

namespace perfci::contracts {
namespace {

struct Build {
  std::string compiler;  // gcc or clang
  int dwarf;
};

void PrintTo(const Build& b, std::ostream* os) { *os << b.compiler << " -gdwarf-" << b.dwarf; }

std::string build_name(const testing::TestParamInfo<Build>& info) {
  return info.param.compiler + "_dwarf" + std::to_string(info.param.dwarf);
}

class ContractFixtures : public testing::TestWithParam<Build> {
 protected:
  std::string path(const std::string& name) const {
    return std::string(PERFCI_CONTRACT_FIXTURES) + "/" + GetParam().compiler + "-dwarf" +
           std::to_string(GetParam().dwarf) + "/" + name;
  }
  bool gcc() const { return GetParam().compiler == "gcc"; }

  const BinaryIndex& binary(const std::string& name) {
    auto& slot = binaries_[name];
    if (!slot) slot = std::make_unique<BinaryIndex>(path(name));
    return *slot;
  }

  ContractResult check(const std::string& name, const Contract& c) {
    return ContractChecker(binary(name)).check(c);
  }

  static Contract inline_contract(std::string caller, std::string callee) {
    Contract c;
    c.kind = ContractKind::kInline;
    c.caller = std::move(caller);
    c.callee = std::move(callee);
    return c;
  }
  static Contract absent_contract(std::string symbol) {
    Contract c;
    c.kind = ContractKind::kAbsent;
    c.symbol = std::move(symbol);
    return c;
  }
  static Contract layout_contract(std::string type, uint64_t max) {
    Contract c;
    c.kind = ContractKind::kLayout;
    c.type = std::move(type);
    c.max_bytes = max;
    return c;
  }
  static Contract returns_contract(std::string function) {
    Contract c;
    c.kind = ContractKind::kReturnsInRegisters;
    c.function = std::move(function);
    return c;
  }

 private:
  std::map<std::string, std::unique_ptr<BinaryIndex>> binaries_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_P(ContractFixtures, InlinedDecoderKeepsTheInlineContract) {
  ContractResult r = check("inline", inline_contract("fx::BtCursor::seek", "fx::get_varint"));
  EXPECT_EQ(r.verdict, Verdict::kOk) << r.message;
  EXPECT_TRUE(r.remaining_calls.empty());
  ASSERT_GE(r.inlined_copies.size(), 2u) << r.message;  // two decodes per probe
  for (const InlinedSite& site : r.inlined_copies) {
    EXPECT_EQ(site.function, "fx::BtCursor::seek");
    EXPECT_FALSE(site.ranges.empty());
  }
  ContractResult absent = check("inline", absent_contract("fx::get_varint"));
  EXPECT_EQ(absent.verdict, Verdict::kOk) << absent.message;
}

TEST_P(ContractFixtures, NoinlineDecoderBreaksItAtEachCallSite) {
  ContractResult r =
      check("inline_noinline", inline_contract("fx::BtCursor::seek", "fx::get_varint"));
  EXPECT_EQ(r.verdict, Verdict::kBroken);
  ASSERT_EQ(r.remaining_calls.size(), 2u) << r.message;
  EXPECT_TRUE(r.inlined_copies.empty());
  EXPECT_TRUE(
      contains(r.message, "fx::get_varint: 2 out-of-line calls left in fx::BtCursor::seek at 0x"))
      << r.message;
  for (const CallSite& c : r.remaining_calls) {
    EXPECT_EQ(c.kind, TransferKind::kCall);
    EXPECT_EQ(c.via, TransferVia::kDirect);
    EXPECT_EQ(c.in_function, "fx::BtCursor::seek");
    EXPECT_TRUE(contains(r.message, fmt::format("{:#x}", c.address))) << r.message;
  }
  ContractResult absent = check("inline_noinline", absent_contract("fx::get_varint"));
  EXPECT_EQ(absent.verdict, Verdict::kBroken);
  ASSERT_EQ(absent.out_of_line.size(), 1u);
  EXPECT_TRUE(contains(absent.out_of_line[0].symbol, "fx::get_varint(unsigned char const*"))
      << absent.message;
}

TEST_P(ContractFixtures, WildcardsMatchAndNamesThatMatchNothingAreErrors) {
  EXPECT_EQ(check("inline", inline_contract("fx::*::seek", "fx::get_*")).verdict, Verdict::kOk);
  EXPECT_EQ(check("inline_noinline", inline_contract("*BtCursor::seek", "*varint")).verdict,
            Verdict::kBroken);
  ContractResult no_caller =
      check("inline", inline_contract("fx::Nothing::seek", "fx::get_varint"));
  EXPECT_EQ(no_caller.verdict, Verdict::kError);
  EXPECT_TRUE(contains(no_caller.message, "fx::Nothing::seek names no function"))
      << no_caller.message;
  ContractResult no_callee =
      check("inline", inline_contract("fx::BtCursor::seek", "fx::get_zigzag"));
  EXPECT_EQ(no_callee.verdict, Verdict::kError);
  EXPECT_EQ(check("inline", absent_contract("fx::nothing")).verdict, Verdict::kError);
  EXPECT_EQ(check("inline", returns_contract("fx::nothing")).verdict, Verdict::kError);
  EXPECT_EQ(check("layout", layout_contract("fx::Nothing", 8)).verdict, Verdict::kError);
}

TEST_P(ContractFixtures, ReturnsInRegistersUpTo16TrivialBytes) {
  ContractResult pair = check("returns", returns_contract("fx::make_pair16"));
  EXPECT_EQ(pair.verdict, Verdict::kOk) << pair.message;
  EXPECT_TRUE(contains(pair.message, "16 bytes")) << pair.message;
  EXPECT_TRUE(contains(pair.message, "first argument in RDI")) << pair.message;

  ContractResult quad = check("returns", returns_contract("fx::make_quad32"));
  EXPECT_EQ(quad.verdict, Verdict::kBroken) << quad.message;
  EXPECT_TRUE(contains(quad.message, "hidden pointer")) << quad.message;
  EXPECT_TRUE(contains(quad.message, "32 bytes")) << quad.message;
  EXPECT_TRUE(contains(quad.message, "first argument in RSI")) << quad.message;

  // 8 bytes, but a user-provided destructor forces the hidden pointer.
  ContractResult handle = check("returns", returns_contract("fx::open_handle"));
  EXPECT_EQ(handle.verdict, Verdict::kBroken) << handle.message;
  EXPECT_TRUE(contains(handle.message, "8 bytes")) << handle.message;
}

TEST_P(ContractFixtures, LayoutBoundHoldsUntilTheStructGrows) {
  ContractResult ok = check("layout", layout_contract("fx::Row", 24));
  EXPECT_EQ(ok.verdict, Verdict::kOk) << ok.message;
  EXPECT_EQ(ok.size_bytes, 24u);
  ContractResult grown = check("layout_grown", layout_contract("fx::Row", 24));
  EXPECT_EQ(grown.verdict, Verdict::kBroken);
  EXPECT_EQ(grown.size_bytes, 40u);
  EXPECT_TRUE(contains(grown.message, "fx::Row is 40 bytes, 16 over the 24-byte bound"))
      << grown.message;
  // Template arguments as either compiler or the demangler spells them.
  for (const char* spelling :
       {"fx::Box<int, 3u>", "fx::Box<int, 3>", "fx::Box<int,3U>", "fx::Box<*>"}) {
    ContractResult box = check("layout", layout_contract(spelling, 12));
    EXPECT_EQ(box.verdict, Verdict::kOk) << spelling << ": " << box.message;
    EXPECT_EQ(box.size_bytes, 12u) << spelling;
  }
  EXPECT_EQ(check("layout", layout_contract("fx::Box<int, 3>", 8)).verdict, Verdict::kBroken);
}

TEST_P(ContractFixtures, TailJumpCountsAsAnOutOfLineCall) {
  ContractResult r = check("tailcall", inline_contract("fx::forward", "fx::transform"));
  EXPECT_EQ(r.verdict, Verdict::kBroken);
  ASSERT_EQ(r.remaining_calls.size(), 1u) << r.message;
  EXPECT_EQ(r.remaining_calls[0].kind, TransferKind::kTailJump);
  EXPECT_EQ(r.remaining_calls[0].target, "fx::transform");
  EXPECT_TRUE(contains(r.message, "(tail jump)")) << r.message;
}

TEST_P(ContractFixtures, CallsThroughThePltAreFound) {
  ContractResult r = check("shared_plt", inline_contract("fx::decode_twice", "fx::shared_decode"));
  EXPECT_EQ(r.verdict, Verdict::kBroken);
  ASSERT_EQ(r.remaining_calls.size(), 2u) << r.message;
  for (const CallSite& c : r.remaining_calls) {
    EXPECT_EQ(c.via, TransferVia::kPlt);
    EXPECT_EQ(c.target, "fx::shared_decode");
  }
  EXPECT_TRUE(contains(r.message, "via PLT")) << r.message;
  EXPECT_EQ(check("shared_plt", absent_contract("fx::shared_decode")).verdict, Verdict::kBroken);
}

TEST_P(ContractFixtures, NoPltCallsThroughTheGotAreFound) {
  ContractResult r =
      check("shared_noplt", inline_contract("fx::decode_twice", "fx::shared_decode"));
  EXPECT_EQ(r.verdict, Verdict::kBroken);
  ASSERT_EQ(r.remaining_calls.size(), 2u) << r.message;
  for (const CallSite& c : r.remaining_calls) {
    EXPECT_EQ(c.via, TransferVia::kGot);
    EXPECT_EQ(c.target, "fx::shared_decode");
  }
  EXPECT_TRUE(contains(r.message, "via GOT")) << r.message;
}

// gcc splits these functions into .constprop / .isra / .part / .cold pieces;
// the call left in each piece must be found. clang keeps them whole (or
// inlines lookup into main) and the verdicts are the same.
TEST_P(ContractFixtures, CallsLeftInClonesAndColdPartsAreFound) {
  struct Case {
    const char* caller;
    const char* gcc_piece;
  };
  for (Case c : {Case{"fx::scale_all", ".constprop"}, Case{"fx::weigh", ".isra"},
                 Case{"fx::lookup", ".part"}, Case{"fx::check_all", ".cold"}}) {
    ContractResult r = check("clones", inline_contract(c.caller, "fx::leaf"));
    EXPECT_EQ(r.verdict, Verdict::kBroken) << c.caller << ": " << r.message;
    ASSERT_FALSE(r.remaining_calls.empty()) << c.caller << ": " << r.message;
    if (gcc()) {
      bool in_piece = false;
      for (const CallSite& s : r.remaining_calls)
        in_piece = in_piece || contains(s.in_function, c.gcc_piece);
      EXPECT_TRUE(in_piece) << c.caller << ": " << r.message;
    }
  }
  if (gcc()) {
    // The fixture really has the pieces, so the test above is not vacuous.
    std::set<std::string> markers;
    for (const ElfFunctionSymbol& s : binary("clones").elf().functions())
      for (const char* m : {".constprop", ".isra", ".part", ".cold"})
        if (contains(std::string(s.name), m)) markers.insert(m);
    EXPECT_EQ(markers.size(), 4u);
  }
}

TEST_P(ContractFixtures, StaticFunctionsAreNamedFromTheirDwarfParents) {
  const BinaryIndex& bin = binary("clones");
  FunctionMatches m = bin.find_functions(NamePattern("fx::scale_all"));
  ASSERT_FALSE(m.concrete.empty());
  EXPECT_EQ(m.names, std::vector<std::string>{"fx::scale_all"});
  if (gcc()) {
    // GCC gives static functions no DW_AT_linkage_name: the name must come
    // from the enclosing namespace.
    bool any_without_linkage = false;
    for (const DwarfFunction& f : bin.dwarf().functions())
      if (f.lexical == "fx::scale_all" && f.linkage.empty()) any_without_linkage = true;
    EXPECT_TRUE(any_without_linkage);
  }
  ContractResult absent = check("clones", absent_contract("fx::scale_all"));
  EXPECT_EQ(absent.verdict, Verdict::kBroken) << absent.message;

  ContractResult bias = check("intermediate", inline_contract("fx::Table::seek", "fx::bias"));
  EXPECT_EQ(bias.verdict, Verdict::kOk) << bias.message;
  ContractResult anon =
      check("intermediate", inline_contract("fx::mix", "fx::(anonymous namespace)::bias_anon"));
  EXPECT_EQ(anon.verdict, Verdict::kOk) << anon.message;
}

TEST_P(ContractFixtures, CalleeReachedThroughAnotherFunctionNamesIt) {
  ContractResult r = check("intermediate", inline_contract("fx::Table::seek", "fx::get_varint32"));
  EXPECT_EQ(r.verdict, Verdict::kBroken);
  EXPECT_TRUE(r.remaining_calls.empty());
  EXPECT_TRUE(contains(
      r.message,
      "fx::Table::seek calls fx::decode_entry out of line, which inlines fx::get_varint32"))
      << r.message;
  EXPECT_EQ(check("intermediate", inline_contract("fx::decode_entry", "fx::get_varint32")).verdict,
            Verdict::kOk);
}

TEST_P(ContractFixtures, ReportCollectsEveryContract) {
  std::vector<Contract> contracts = {inline_contract("fx::BtCursor::seek", "fx::get_varint"),
                                     absent_contract("fx::get_varint"),
                                     returns_contract("fx::BtCursor::seek")};
  ContractReport report = ContractChecker(binary("inline_noinline")).check_all(contracts);
  ASSERT_EQ(report.results.size(), 3u);
  EXPECT_EQ(report.count(Verdict::kBroken), 2u);
  EXPECT_EQ(report.count(Verdict::kOk), 1u);
  EXPECT_EQ(report.exit_code(), 1);
  nlohmann::json j = report.to_json();
  EXPECT_EQ(j["contracts"][0]["remaining_calls"].size(), 2u);
  EXPECT_EQ(j["binary"], path("inline_noinline"));
}

INSTANTIATE_TEST_SUITE_P(Compilers, ContractFixtures,
                         testing::Values(Build{"gcc", 4}, Build{"gcc", 5}, Build{"clang", 4},
                                         Build{"clang", 5}),
                         build_name);

TEST(BinaryIndex, MissingBinaryAndMissingDebugInfoAreClearErrors) {
  try {
    BinaryIndex bin("/nonexistent/bench");
    ADD_FAILURE();
  } catch (const BinaryError& e) {
    EXPECT_TRUE(contains(e.what(), "does not exist")) << e.what();
  }
  try {
    BinaryIndex bin(std::string(PERFCI_CONTRACT_FIXTURES) + "/gcc-dwarf5/nodebug");
    ADD_FAILURE();
  } catch (const BinaryError& e) {
    EXPECT_TRUE(contains(e.what(), "-g")) << e.what();
  }
  try {
    BinaryIndex bin(std::string(PERFCI_CONTRACT_FIXTURES) + "/CMakeFiles");
    ADD_FAILURE();
  } catch (const BinaryError& e) {
    EXPECT_TRUE(contains(e.what(), "not a regular file")) << e.what();
  }
}

}  // namespace
}  // namespace perfci::contracts
