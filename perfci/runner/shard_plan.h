// Splitting a suite across CI jobs (`--shard K/N`): which benchmarks each of
// N jobs measures, balanced by what each is expected to cost. Every job of
// one commit must arrive at the same split without talking to the others,
// so the plan is a pure function of the benchmark names and of costs read
// from a file all jobs share (the stored baseline), never of anything
// measured by the job itself. Each partial
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

// Longest-processing-time-first: benchmarks in descending cost, ties by
// position, each to the least loaded shard (ties: the one with fewer
// benchmarks, then the lowest). At most 4/3 of the optimal largest shard;
// no split is better when one benchmark alone outweighs the mean. Pairs
// such as engine/X and sqlite/X may land apart: `perfci merge` computes
// their gap. Throws perfci::Error when there are fewer benchmarks than
// shards (a shard would measure nothing) or a name is listed twice.
ShardPlan plan_shards(const std::vector<std::string>& names, std::map<std::string, ShardCost> costs,
                      int count);

}  // namespace perfci
