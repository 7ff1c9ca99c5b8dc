// Gallery case 1: a varint decoder no longer inlined into a cursor's binary
// search (sqlite-rs: read_join 1.9x slower than SQLite). The good build
// inlines decode_varint into Cursor::seek; the regressed one keeps it out of
// line, so every probe of the search pays a call.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "perfci/bench.h"

#if GALLERY_REGRESSED
#define DECODE_INLINE __attribute__((noinline))
#else
#define DECODE_INLINE inline __attribute__((always_inline))
#endif

namespace gallery {

DECODE_INLINE std::uint64_t decode_varint(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 9; ++i) {
    v = (v << 7) | (p[i] & 0x7f);
    if (!(p[i] & 0x80)) break;
  }
  return v;
}

struct Cursor {
  std::vector<std::uint8_t> cells;  // varint keys, 4 bytes apart, ascending
  std::size_t count = 0;

  // The binary search over the page's cells: one decode per probe.
  __attribute__((noinline)) std::size_t seek(std::uint64_t key) const {
    std::size_t lo = 0, hi = count;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (decode_varint(&cells[mid * 4]) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
};

Cursor make_cursor(std::size_t n) {
  Cursor c;
  c.count = n;
  c.cells.assign(n * 4 + 9, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = i * 3;  // < 2^21: three 7-bit groups
    c.cells[i * 4] = static_cast<std::uint8_t>(0x80 | ((key >> 14) & 0x7f));
    c.cells[i * 4 + 1] = static_cast<std::uint8_t>(0x80 | ((key >> 7) & 0x7f));
    c.cells[i * 4 + 2] = static_cast<std::uint8_t>(key & 0x7f);
  }
  return c;
}

}  // namespace gallery

static void BM_point_lookup(benchmark::State& state) {
  const gallery::Cursor cursor = gallery::make_cursor(4096);
  std::uint64_t key = 1;
  perfci::BenchHook hook(state);
  for (auto _ : state) {
    for (int i = 0; i < 64; ++i) {
      key = (key * 2654435761u + 1) % (4096 * 3);
      benchmark::DoNotOptimize(cursor.seek(key));
    }
  }
}
BENCHMARK(BM_point_lookup);

BENCHMARK_MAIN();
