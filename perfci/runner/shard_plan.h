// Splitting a suite across CI jobs (`--shard K/N`): which benchmarks each of
// N jobs measures, balanced by what each is expected to cost. Every job of
// one commit must arrive at the same split without talking to the others,
// so the plan is a pure function of the benchmark names, the groups that
// must stay together and costs read from a file all jobs share (the stored
// baseline), never of anything measured by the job itself. Each partial
// report records the whole plan; `perfci merge` refuses parts whose plans
// differ.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfci/meters/measure.h"
#include "perfci/model/results.h"
#include "perfci/model/shard.h"

namespace perfci {

// The seconds each of `names` should take when measured with `options`
// (its meters, callgrind filter and profile source), from `past` (a stored
// baseline's results; nullptr: none known). Names `past` knows nothing about
// are left out; plan_shards fills them in.
std::map<std::string, ShardCost> expected_costs(const std::vector<std::string>& names,
                                                const MeasureOptions& options,
                                                const RunResults* past);

// Longest-processing-time-first: groups (a set of `together`, or one name)
// in descending cost, ties by their first name's position, each to the
// least loaded shard (ties: the one with fewer groups, then the lowest). At most 4/3 of the optimal
// largest shard; no better split exists when one group alone outweighs the
// mean. Throws perfci::Error when there are fewer groups than shards (a
// shard would measure nothing).
ShardPlan plan_shards(const std::vector<std::string>& names,
                      const std::vector<std::vector<std::string>>& together,
                      std::map<std::string, ShardCost> costs, int count);

}  // namespace perfci
