// Gallery case 4: a dependent load added to a per-row loop (4.5% on range
// scans). The good build reads each row's value from the row itself, 16
// bytes, four rows per cache line; the regressed one reads it through an
// index into a shared payload array in insertion order, which the scan
// visits scattered: one more load per row, and that load misses the cache.
// The instructions barely change; the cache simulation shows the cost.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "perfci/bench.h"

namespace gallery {

struct Row {
  std::int64_t key;
#if GALLERY_REGRESSED
  std::uint32_t payload;  // index into Table::payloads
  std::uint32_t pad;
#else
  std::int64_t value;
#endif
};

struct Table {
  std::vector<Row> rows;
  std::vector<std::int64_t> payloads;  // the regressed layout's values
};

Table make_table(std::size_t n) {
  Table t;
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  t.rows.resize(n);
  t.payloads.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto value = static_cast<std::int64_t>(i % 1000);
    t.rows[i].key = static_cast<std::int64_t>(i);
#if GALLERY_REGRESSED
    t.rows[i].payload = order[i];
    t.payloads[order[i]] = value;
#else
    t.rows[i].value = value;
#endif
  }
  return t;
}

__attribute__((noinline)) std::int64_t sum_range(const Table& t, std::int64_t lo, std::int64_t hi) {
  std::int64_t sum = 0;
  for (const Row& r : t.rows) {
    if (r.key < lo || r.key >= hi) continue;
#if GALLERY_REGRESSED
    sum += t.payloads[r.payload];
#else
    sum += r.value;
#endif
  }
  return sum;
}

}  // namespace gallery

static void BM_range_scan(benchmark::State& state) {
  const gallery::Table table = gallery::make_table(1 << 17);  // 2 MiB of rows
  perfci::BenchHook hook(state);
  for (auto _ : state) benchmark::DoNotOptimize(gallery::sum_range(table, 0, 1 << 17));
}
BENCHMARK(BM_range_scan);

BENCHMARK_MAIN();
