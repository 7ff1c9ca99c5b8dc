// Gallery case 2: a 32-byte return forced through a hidden `sret` pointer
// (+2% wall). The good build returns a 16-byte Span {offset, length} in two
// registers; the regressed one adds two fields "for later", and the x86-64
// ABI returns the 32-byte struct through memory: a store and a load more on
// every call of cell_span.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "perfci/bench.h"

namespace gallery {

struct Span {
  std::uint64_t offset;
  std::uint64_t length;
#if GALLERY_REGRESSED
  std::uint64_t overflow_page;  // the fields that pushed it past 16 bytes
  std::uint64_t flags;
#endif
};

// One cell's payload extent; out of line, as a real accessor across
// translation units would be.
__attribute__((noinline)) Span cell_span(const std::uint16_t* offsets, std::size_t i) {
  Span s{};
  s.offset = offsets[i];
  s.length = offsets[i + 1] - offsets[i];
  return s;
}

}  // namespace gallery

static void BM_scan_cells(benchmark::State& state) {
  std::vector<std::uint16_t> offsets(1025);
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<std::uint16_t>(i * 7);
  perfci::BenchHook hook(state);
  for (auto _ : state) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < 1024; ++i) total += gallery::cell_span(offsets.data(), i).length;
    benchmark::DoNotOptimize(total);
  }
}
BENCHMARK(BM_scan_cells);

BENCHMARK_MAIN();
