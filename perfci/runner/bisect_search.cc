#include "perfci/runner/bisect_search.h"

#include <set>
#include <stdexcept>

namespace perfci {
namespace {

// The untried, unskipped candidate of [lo, hi) nearest the middle; hi when
// there is none.
std::size_t next_probe(std::size_t lo, std::size_t hi, const std::set<std::size_t>& skipped) {
  const std::size_t mid = lo + (hi - lo) / 2;
  for (std::size_t d = 0; d < hi - lo; ++d) {
    if (mid + d < hi && !skipped.count(mid + d)) return mid + d;
    if (d > 0 && mid >= lo + d && !skipped.count(mid - d)) return mid - d;
  }
  return hi;
}

}  // namespace

std::string_view to_string(BisectStep step) {
  switch (step) {
    case BisectStep::kGood:
      return "good";
    case BisectStep::kBad:
      return "bad";
    case BisectStep::kSkip:
      return "skipped";
    case BisectStep::kUndecided:
      return "undecided";
  }
  return "?";
}

std::string_view to_string(BisectOutcome outcome) {
  switch (outcome) {
    case BisectOutcome::kFound:
      return "found";
    case BisectOutcome::kNoRegression:
      return "no_regression";
    case BisectOutcome::kSkippedRange:
      return "skipped_range";
    case BisectOutcome::kUndecided:
      return "undecided";
  }
  return "?";
}

std::size_t max_bisect_probes(std::size_t n) {
  std::size_t probes = 0;
  for (std::size_t answers = 1; answers < n + 1; answers *= 2) ++probes;
  return probes;
}

BisectSearchResult bisect_search(std::size_t n,
                                 const std::function<BisectStep(std::size_t)>& probe) {
  if (n == 0) throw std::invalid_argument("bisect_search: no candidates");
  BisectSearchResult r;
  // The answer is in [lo, hi]; hi == n stands for "none".
  std::size_t lo = 0, hi = n;
  std::set<std::size_t> skipped;
  auto open_range = [&](BisectOutcome outcome) {
    r.outcome = outcome;
    r.lo = lo;
    r.may_be_none = hi == n;
    r.hi = r.may_be_none ? n - 1 : hi;
    return r;
  };
  while (lo < hi) {
    std::size_t i = next_probe(lo, hi, skipped);
    if (i == hi) return open_range(BisectOutcome::kSkippedRange);
    BisectStep step = probe(i);
    r.probes.push_back({i, step});
    switch (step) {
      case BisectStep::kGood:
        lo = i + 1;
        break;
      case BisectStep::kBad:
        hi = i;
        break;
      case BisectStep::kSkip:
        skipped.insert(i);
        break;
      case BisectStep::kUndecided:
        return open_range(BisectOutcome::kUndecided);
    }
  }
  if (lo == n) {
    r.outcome = BisectOutcome::kNoRegression;
  } else {
    r.outcome = BisectOutcome::kFound;
    r.first_bad = lo;
  }
  return r;
}

}  // namespace perfci
