// Gallery case 3: an O(n^2) `remove(0)` drain in a range iterator. The good
// build hands out the buffered rows by advancing an index; the regressed one
// erases the front element each time, moving every row behind it. Linear
// cost per row becomes linear per row *times the rows left*: only a family
// of sizes shows it (the scaling contract), one size is just "slower".
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "perfci/bench.h"

namespace gallery {

// Buffers a range's n rows and hands them out one by one. The buffer is
// reused and filled by a loop: an allocation, or a memcpy long enough for
// `rep movsb` (which valgrind counts byte by byte), would make a larger
// size cost more per row than its rows do.
class RangeIterator {
 public:
  void reset(std::size_t n) {
    rows_.resize(n);
    for (std::size_t i = 0; i < n; ++i) rows_[i] = static_cast<std::int64_t>(i * 5 % 977);
#if !GALLERY_REGRESSED
    pos_ = 0;
#endif
  }

  __attribute__((noinline)) bool next(std::int64_t* out) {
#if GALLERY_REGRESSED
    if (rows_.empty()) return false;
    *out = rows_.front();
    rows_.erase(rows_.begin());  // remove(0)
    return true;
#else
    if (pos_ == rows_.size()) return false;
    *out = rows_[pos_++];
    return true;
#endif
  }

 private:
  std::vector<std::int64_t> rows_;
#if !GALLERY_REGRESSED
  std::size_t pos_ = 0;
#endif
};

}  // namespace gallery

static void BM_drain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  gallery::RangeIterator it;
  it.reset(n);
  perfci::BenchHook hook(state);
  for (auto _ : state) {
    it.reset(n);
    std::int64_t v = 0, sum = 0;
    while (it.next(&v)) sum += v;
    benchmark::DoNotOptimize(sum);
  }
}
// Small sizes: valgrind counts a `rep movsb` byte by byte, and the
// regressed drain moves n^2 / 2 rows.
BENCHMARK(BM_drain)->Arg(250)->Arg(1000)->Arg(4000);

BENCHMARK_MAIN();
