// A suite split across CI jobs (`--shard K/N`): which shard a report is,
// and the plan every shard of one commit shares (which benchmark each job
// measures, and why: the expected cost of each). Planned in
// perfci/runner/shard_plan.h; recorded in partial reports and checked by
// `perfci merge`.
#pragma once

#include <string>
#include <vector>

namespace perfci {

struct ShardSpec {
  int index = 1;  // K, 1-based
  int count = 1;  // N
  friend bool operator==(const ShardSpec&, const ShardSpec&) = default;
};

// "K/N" with 1 <= K <= N. Throws perfci::Error naming --shard otherwise.
ShardSpec parse_shard(const std::string& text);
std::string format_shard(const ShardSpec& s);  // "2/3"

// What one benchmark is expected to cost, in seconds, and where that came
// from: "measured" (the past run's cost_s for the meters this run uses),
// "estimated" (the past run's metrics: the wall meter's timed time, callgrind
// Ir at a fixed rate), "median" (not in the past run: the median of the known
// costs) or "none" (nothing known about any benchmark: all cost 1, so the
// split is by count, in name order).
struct ShardCost {
  double seconds = 0;
  std::string source;
  friend bool operator==(const ShardCost&, const ShardCost&) = default;
};

struct ShardPlan {
  struct Entry {
    std::string name;
    int shard = 1;  // 1-based
    ShardCost cost;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  int count = 1;
  std::vector<Entry> entries;  // every benchmark of the suite, in the binary's order

  std::vector<std::string> names_of(int shard) const;  // in the binary's order
  std::vector<double> shard_seconds() const;           // [k-1]: shard k's expected cost
  friend bool operator==(const ShardPlan&, const ShardPlan&) = default;
};

}  // namespace perfci
