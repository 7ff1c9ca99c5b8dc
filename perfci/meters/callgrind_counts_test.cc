#include "perfci/meters/callgrind_counts.h"

#include <gtest/gtest.h>

#include "perfci/meters/callgrind_process.h"

namespace perfci {
namespace {

TEST(CallgrindCounts, AllocatorEntryPoints) {
  for (const char* f : {"malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
                        "operator new(unsigned long)", "operator new[](unsigned long)",
                        "operator new(unsigned long, std::align_val_t)",
                        "operator new(unsigned long, std::nothrow_t const&)"})
    EXPECT_TRUE(is_allocator(f)) << f;
  for (const char* f :
       {"free", "operator delete(void*)", "mallocx", "my_malloc", "_int_malloc",
        "operator new_handler", "std::vector<int>::push_back(int const&)",
        // placement new allocates nothing (seen at -O0: std::_Construct calls it)
        "operator new(unsigned long, void*)", "operator new[](unsigned long, void*)"})
    EXPECT_FALSE(is_allocator(f)) << f;
}

// operator new calling malloc is one allocation, charged to operator new's
// caller; calls inside the allocator (malloc -> _int_malloc) are not counted.
const char* kAllocating = R"(events: Ir
fn=Statement::build_plan()
1 10
cfn=operator new(unsigned long)
calls=8 0
1 800
cfn=strdup
calls=2 0
1 100
fn=operator new(unsigned long)
1 80
cfn=malloc
calls=8 0
1 720
fn=strdup
1 20
cfn=malloc
calls=2 0
1 80
fn=malloc
1 800
cfn=_int_malloc
calls=3 0
1 300
)";

TEST(CallgrindCounts, AllocationsByCallerOutsideTheAllocator) {
  ProfileCounts c = profile_counts(parse_callgrind_output(kAllocating, "cg.out"));
  ASSERT_EQ(c.allocations_by_caller.size(), 2u);
  EXPECT_EQ(c.allocations_by_caller.at("Statement::build_plan()"), 8u);
  EXPECT_EQ(c.allocations_by_caller.at("strdup"), 2u);
  CallgrindResult r;
  set_per_iteration_counts(r, c, nullptr, 2);
  ASSERT_TRUE(r.allocations);
  EXPECT_DOUBLE_EQ(r.allocations->per_iteration, 5.0);
  ASSERT_EQ(r.allocations->sites.size(), 2u);
  EXPECT_EQ(r.allocations->sites[0].function, "Statement::build_plan()");
  EXPECT_DOUBLE_EQ(r.allocations->sites[0].per_iteration, 4.0);
  EXPECT_FALSE(r.cache.has_value());  // no simulation, no cache figures
}

TEST(CallgrindCounts, NoAllocationIsZeroNotAbsent) {
  CallgrindResult r;
  set_per_iteration_counts(
      r, profile_counts(parse_callgrind_output("events: Ir\nfn=f\n1 5\n", "x")), nullptr, 10);
  ASSERT_TRUE(r.allocations);
  EXPECT_EQ(r.allocations->per_iteration, 0.0);
  EXPECT_TRUE(r.allocations->sites.empty());
}

TEST(CallgrindCounts, CacheMissesPerIterationAndEstimatedCycles) {
  ProfileCounts c;
  c.events = {{"Ir", 1000}, {"I1mr", 10}, {"D1mr", 30}, {"D1mw", 10},
              {"ILmr", 2},  {"DLmr", 6},  {"DLmw", 2}};
  CallgrindResult r;
  r.ir_per_iteration = 100;
  set_per_iteration_counts(r, c, nullptr, 10);
  ASSERT_TRUE(r.cache);
  EXPECT_DOUBLE_EQ(r.cache->l1i_misses, 1.0);
  EXPECT_DOUBLE_EQ(r.cache->l1d_misses, 4.0);
  EXPECT_DOUBLE_EQ(r.cache->lli_misses, 0.2);
  EXPECT_DOUBLE_EQ(r.cache->lld_misses, 0.8);
  // Ir + 10 x L1 misses + 100 x LL misses.
  EXPECT_DOUBLE_EQ(r.cache->estimated_cycles(100), 100 + 10 * 5.0 + 100 * 1.0);
}

// The hook-free fit: per iteration is the larger call less the smaller one,
// for allocations and misses as for Ir.
TEST(CallgrindCounts, TwoPointFitDifferencesCountsToo) {
  auto profile = [](int iterations) {
    std::string text = "events: Ir D1mr\nfn=f\n1 " + std::to_string(100 + 10 * iterations) + " " +
                       std::to_string(5 + 2 * iterations) +
                       "\ncfn=malloc\ncalls=" + std::to_string(1 + 3 * iterations) + " 0\n1 " +
                       std::to_string(7 * (1 + 3 * iterations)) + "\n";
    return parse_callgrind_output(text, "cg.out");
  };
  CallgrindResult r = fit_two_calls(profile(10), 10, profile(100), 100, 10);
  ASSERT_TRUE(r.allocations);
  EXPECT_DOUBLE_EQ(r.allocations->per_iteration, 3.0);  // setup's one malloc fitted out
  ASSERT_TRUE(r.cache);
  EXPECT_DOUBLE_EQ(r.cache->l1d_misses, 2.0);
  ASSERT_FALSE(r.functions.empty());
  EXPECT_EQ(r.functions[0].self_l1_misses, 2u * 90u);
}

}  // namespace
}  // namespace perfci
