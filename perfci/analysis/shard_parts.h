// The partial reports of one sharded run (`--shard K/N` on N CI jobs), and
// the one test that they are parts of one run before anything is joined:
// the same N and plan, every index once, each part holding only the
// benchmarks the plan gave it, the same settings (but the shard), and
// whatever else the caller names as the run's identity (commit, profile,
// baseline for a check; both sides for an A/B). Joining parts that are not
// one run would give a verdict no run made, so every difference is an
// error (perfci::Error, exit 2), all of them in one message.
#pragma once

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/model/report.h"

namespace perfci::analysis {

struct ReportPart {
  std::string file;  // where it was read from, for messages and the merged record
  Report report;
};

// A fact every part must share, and how to read it off a report.
struct RunFact {
  std::string what;  // "the commit"
  std::function<std::string(const Report&)> of;
};

// Throws perfci::Error unless `parts` are every part of one sharded run of
// mode(s) `modes` ("check"; "ab" and "aa").
void check_one_sharded_run(const std::vector<ReportPart>& parts,
                           const std::vector<std::string>& modes,
                           const std::vector<RunFact>& identity);

// The report's settings without "shard": what every part must share.
nlohmann::json settings_without_shard(const Report& report);

// The record of each part in the merged report (by index).
std::vector<MergedPart> merged_parts(const std::vector<ReportPart>& parts,
                                     const std::function<std::string(const Report&)>& outcome,
                                     const std::function<int(const Report&)>& gated_metrics);

// Sorts `parts` by index, and `benchmarks` in the plan's order.
void sort_parts(std::vector<ReportPart>& parts);
void sort_by_plan(std::vector<BenchmarkReport>& benchmarks, const ShardPlan& plan);

// Appends what `from` has that `into` lacks, keeping first-seen order: what
// every part repeats (a contract's finding) appears once.
template <typename T>
void add_missing(std::vector<T>& into, const std::vector<T>& from) {
  for (const auto& x : from)
    if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
}

}  // namespace perfci::analysis
