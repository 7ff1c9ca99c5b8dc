// The halving of `perfci bisect`, with no git, build or meter in it, so that
// it can be tested against a fake oracle. The candidates are the commits of
// GOOD..BAD oldest first (index n - 1 is BAD); GOOD, before index 0, is
// known good. The first bad commit is searched among n + 1 answers: one of
// the n candidates, or "none" (BAD itself is not bad). Halving that answer
// space probes BAD only when it is the answer or just before "none", so BAD
// is trusted as git bisect trusts it, yet never named unmeasured, and the
// probes are at most ceil(log2(n + 1)) without skips.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace perfci {

// What one measured candidate turned out to be.
enum class BisectStep {
  kGood,       // not slower than GOOD beyond the threshold
  kBad,        // slower than GOOD beyond the threshold
  kSkip,       // could not be measured (does not build, no such benchmark): try a neighbour
  kUndecided,  // measured, but the measurement cannot tell (noisy): the search stops
};

enum class BisectOutcome {
  kFound,         // `first_bad` is the first bad candidate
  kNoRegression,  // every candidate up to BAD is good
  kSkippedRange,  // skipped candidates leave [lo, hi] open
  kUndecided,     // an undecided step left [lo, hi] open
};

std::string_view to_string(BisectStep step);
std::string_view to_string(BisectOutcome outcome);

struct BisectProbe {
  std::size_t index = 0;
  BisectStep step = BisectStep::kGood;
};

struct BisectSearchResult {
  BisectOutcome outcome = BisectOutcome::kNoRegression;
  std::size_t first_bad = 0;  // kFound
  // kSkippedRange, kUndecided: the first bad candidate is one of lo..hi
  // (inclusive), or none at all when may_be_none (no candidate of the range
  // was measured bad, BAD included).
  std::size_t lo = 0;
  std::size_t hi = 0;
  bool may_be_none = false;
  std::vector<BisectProbe> probes;  // in the order they were made
};

// The most probes a search of n candidates makes when none is skipped:
// ceil(log2(n + 1)).
std::size_t max_bisect_probes(std::size_t n);

// Searches n >= 1 candidates; `probe(i)` measures candidate i (each at most
// once). A skipped candidate is replaced by the nearest untried one inside
// the open range (the middle's right neighbour first, then its left, ...).
// Throws std::invalid_argument for n == 0.
BisectSearchResult bisect_search(std::size_t n,
                                 const std::function<BisectStep(std::size_t)>& probe);

}  // namespace perfci
