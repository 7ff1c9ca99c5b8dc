#include "perfci/meters/callgrind_output.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

// Several functions, compressed names referenced again later, a call with
// its inclusive cost, a second event column, and subposition compression.
constexpr const char* kOutput = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd: ./fixture_bench --benchmark_filter=^BM_sum$
part: 1

desc: I1 cache:
desc: Timerange: Basic block 0 - 900
desc: Trigger: Program termination

positions: line
events: Ir Dr
summary: 1450 12

ob=(1) /build/fixture_bench
fl=(1) fixture_bench.cc
fn=(1) BM_sum(benchmark::State&)
10 100 2
+2 50
cfl=(1)
cfn=(2) fixture_sum(int const*, int)
calls=10 20
* 1200 9
-1 20

fn=(2)
20 1000 8
+1 200
ob=(2) /lib/x86_64-linux-gnu/libc.so.6
fl=(2) ???
fn=(3) memcpy
0 80 1

totals: 1450 12
)";

const FunctionCost* find(const CallgrindProfile& p, const std::string& name) {
  for (const auto& f : p.functions)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(CallgrindOutput, SelfAndInclusiveCostsOfSeveralFunctions) {
  auto p = parse_callgrind_output(kOutput, "cg.out");
  EXPECT_EQ(p.total_ir, 1450u);
  ASSERT_EQ(p.functions.size(), 3u);
  // Sorted by self cost.
  EXPECT_EQ(p.functions[0].name, "fixture_sum(int const*, int)");
  EXPECT_EQ(p.functions[0].self_ir, 1200u);
  EXPECT_EQ(p.functions[0].inclusive_ir, 1200u);
  EXPECT_EQ(p.functions[0].object, "/build/fixture_bench");
  const auto* bm = find(p, "BM_sum(benchmark::State&)");
  ASSERT_NE(bm, nullptr);
  EXPECT_EQ(bm->self_ir, 170u);
  EXPECT_EQ(bm->inclusive_ir, 1370u);
  const auto* mc = find(p, "memcpy");
  ASSERT_NE(mc, nullptr);
  EXPECT_EQ(mc->object, "/lib/x86_64-linux-gnu/libc.so.6");
  EXPECT_EQ(mc->self_ir, 80u);
  std::uint64_t self = 0;
  for (const auto& f : p.functions) self += f.self_ir;
  EXPECT_EQ(self, p.total_ir);
}

TEST(CallgrindOutput, UncompressedNamesAndMissingTotals) {
  auto p = parse_callgrind_output("events: Ir\nfn=a\n1 5\nfn=b\n2 7\nfn=a\n3 1\n", "x");
  EXPECT_EQ(p.total_ir, 13u);
  ASSERT_EQ(p.functions.size(), 2u);
  EXPECT_EQ(p.functions[0].name, "b");
  EXPECT_EQ(find(p, "a")->self_ir, 6u);
}

TEST(CallgrindOutput, MalformedInputSaysWhere) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_callgrind_output(text, "cg.out");
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(error_of("hello\n").find("not a callgrind output file"), std::string::npos);
  EXPECT_NE(error_of("events: Ir\nfn=(3)\n1 2\n").find("cg.out:2: name id (3) used before"),
            std::string::npos);
  EXPECT_NE(error_of("events: Ir\nfn=a\n1 x\n").find("cg.out:3: expected a cost"),
            std::string::npos);
  EXPECT_NE(error_of("events: Ir\n1 2\n").find("outside any function"), std::string::npos);
  EXPECT_NE(error_of("events: Dr\n").find("no Ir"), std::string::npos);
  EXPECT_NE(error_of("events: Ir\nbogus=1\n").find("unknown specification"), std::string::npos);
}

// An uncompressed file (--compress-strings=no) as the hook-free meter
// reads it: "(below main)" is a name, not an id, and each call is kept as
// an edge, its cob= applying to that call only.
TEST(CallgrindOutput, UncompressedNamesAndCallEdges) {
  const std::string text = R"(events: Ir
ob=/lib/libbenchmark.so
fn=(below main)
0 5
cfn=0x000000000002d130
calls=1 0
0 300
fn=0x000000000002d130
0 10
cfn=benchmark::State::State(long)
calls=3 0
0 30
cob=/build/plain
cfn=(anonymous namespace)::BM_x(benchmark::State&)
calls=3 0
0 240
cfn=0x00000000000122b0
calls=3 0
0 15
)";
  CallgrindProfile p = parse_callgrind_output(text, "cg.out");
  ASSERT_EQ(p.calls.size(), 4u);
  const CallEdge* bm = nullptr;
  const CallEdge* after = nullptr;
  for (const auto& e : p.calls) {
    if (e.callee == "(anonymous namespace)::BM_x(benchmark::State&)") bm = &e;
    if (e.callee == "0x00000000000122b0") after = &e;
  }
  ASSERT_NE(bm, nullptr);
  EXPECT_EQ(bm->caller, "0x000000000002d130");
  EXPECT_EQ(bm->calls, 3u);
  EXPECT_EQ(bm->inclusive_ir, 240u);
  EXPECT_EQ(bm->callee_object, "/build/plain");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->callee_object, "/lib/libbenchmark.so");
  bool below_main = false;
  for (const auto& f : p.functions) below_main |= f.name == "(below main)" && f.self_ir == 5;
  EXPECT_TRUE(below_main);
}

// With --cache-sim=yes: every event's total, and each function's self L1
// misses (I1mr + D1mr + D1mw) and LL misses (ILmr + DLmr + DLmw); a call's
// line is its callee's cost, not the caller's own misses.
TEST(CallgrindOutput, CacheSimulationEvents) {
  const std::string text = R"(events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=scan
1 100 40 10 2 8 1 1 3 0
cfn=load
calls=1 0
1 500 100 0 9 50 0 9 40 0
fn=load
2 500 100 0 9 50 0 9 40
totals: 600 140 10 11 58 1 10 43 0
)";
  CallgrindProfile p = parse_callgrind_output(text, "cg.out");
  EXPECT_EQ(p.total_ir, 600u);
  EXPECT_EQ(p.totals.at("D1mr"), 58u);
  EXPECT_EQ(p.totals.at("DLmr"), 43u);
  EXPECT_EQ(p.totals.at("DLmw"), 0u);
  const FunctionCost* scan = find(p, "scan");
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(scan->self_l1_misses, 2u + 8u + 1u);
  EXPECT_EQ(scan->self_ll_misses, 1u + 3u + 0u);
  const FunctionCost* load = find(p, "load");
  EXPECT_EQ(load->self_l1_misses, 9u + 50u);  // trailing zero columns omitted
  EXPECT_EQ(load->self_ll_misses, 9u + 40u);
  // Without the simulation there are no miss fields at all, not zeros.
  CallgrindProfile plain = parse_callgrind_output("events: Ir\nfn=a\n1 5\n", "x");
  EXPECT_FALSE(plain.functions[0].self_l1_misses.has_value());
  EXPECT_EQ(plain.totals.size(), 1u);
}

TEST(CallgrindOutput, MoreCostsThanEventsIsAnError) {
  try {
    parse_callgrind_output("events: Ir Dr\nfn=a\n1 5 6 7\n", "cg.out");
    FAIL() << "accepted three costs for two events";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cg.out:3: more costs than events"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace perfci
