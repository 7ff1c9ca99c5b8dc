#include "perfci/runner/shard_plan.h"

#include <algorithm>
#include <numeric>
#include <regex>
#include <set>

#include "perfci/util/error.h"

namespace perfci {
namespace {

// For a baseline from before cost_s was recorded: callgrind runs a
// benchmark at roughly this many seconds per counted instruction, after a
// start-up (valgrind itself, the benchmark's setup, which is not counted)
// of about this long. Rough, and only ever compared with other estimates
// made the same way.
constexpr double kCallgrindSecondsPerIr = 2e-8;
constexpr double kCallgrindStartSeconds = 1.0;

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The processes measuring one benchmark under these options: the wall
// meter's (wall and counters share it), callgrind's where its filter
// selects the benchmark, the sampling profiler's.
std::vector<std::string> processes(const std::string& name, const MeasureOptions& o,
                                   const std::regex& callgrind_filter) {
  std::vector<std::string> p;
  if (has(o.meters, "wall") || has(o.meters, "counters")) p.push_back("wall");
  bool callgrind =
      has(o.meters, "callgrind") || (has(o.meters, "profile") && o.profile_source == "callgrind");
  if (callgrind && std::regex_search(name, callgrind_filter)) p.push_back("callgrind");
  if (has(o.meters, "profile") && o.profile_source != "callgrind") p.push_back("profile");
  return p;
}

std::optional<double> estimate(const BenchmarkResult& past, const std::string& process,
                               const std::optional<double>& min_time) {
  if (process == "callgrind" && past.callgrind)
    return kCallgrindStartSeconds +
           kCallgrindSecondsPerIr * static_cast<double>(past.callgrind->total_ir);
  if ((process == "wall" || process == "profile") && past.real_time_ns)
    return *past.real_time_ns * static_cast<double>(past.iterations) * 1e-9;
  if (process == "profile" && min_time) return *min_time;
  return std::nullopt;
}

}  // namespace

std::map<std::string, ShardCost> expected_costs(const std::vector<std::string>& names,
                                                const MeasureOptions& options,
                                                const RunResults* past) {
  std::map<std::string, ShardCost> out;
  if (!past) return out;
  std::regex callgrind_filter;
  try {
    callgrind_filter = std::regex(options.callgrind_filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    throw Error("invalid callgrind filter '" + options.callgrind_filter + "': " + e.what());
  }
  for (const auto& name : names) {
    const BenchmarkResult* b = past->find(name);
    if (!b || b->failed()) continue;
    ShardCost cost{0, "measured"};
    bool known = true;
    for (const auto& p : processes(name, options, callgrind_filter)) {
      if (auto it = b->cost_s.find(p); it != b->cost_s.end()) {
        cost.seconds += it->second;
      } else if (auto e = estimate(*b, p, options.min_time)) {
        cost.seconds += *e;
        cost.source = "estimated";
      } else {
        known = false;
      }
    }
    if (known) out[name] = cost;
  }
  return out;
}

ShardPlan plan_shards(const std::vector<std::string>& names, std::map<std::string, ShardCost> costs,
                      int count) {
  if (count < 1) throw Error("a suite cannot be split into " + std::to_string(count) + " shards");
  std::set<std::string> seen;
  for (const auto& n : names)
    if (!seen.insert(n).second)
      throw Error("benchmark '" + n + "' is listed twice: shards could not be told apart");
  if (names.size() < static_cast<std::size_t>(count))
    throw Error("cannot split " + std::to_string(names.size()) + " benchmark(s) into " +
                std::to_string(count) + " shards: a shard would measure nothing");

  // Names without a cost of their own: the median of the known ones, so
  // that a new benchmark weighs like a typical one; with none known at all,
  // every benchmark weighs the same.
  std::vector<double> known;
  for (const auto& n : names)
    if (auto it = costs.find(n); it != costs.end()) known.push_back(it->second.seconds);
  ShardCost fill{1.0, "none"};
  if (!known.empty()) {
    std::nth_element(known.begin(), known.begin() + static_cast<long>(known.size() / 2),
                     known.end());
    fill = {known[known.size() / 2], "median"};
  }

  ShardPlan plan;
  plan.count = count;
  for (const auto& n : names) {
    auto it = costs.find(n);
    plan.entries.push_back({n, 1, it != costs.end() ? it->second : fill});
  }
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return plan.entries[x].cost.seconds > plan.entries[y].cost.seconds;
  });
  // Load ties go to the shard with fewer benchmarks, so that benchmarks of
  // no cost (measured by no meter of this run) are dealt round, not piled
  // on one.
  std::vector<std::pair<double, std::size_t>> load(static_cast<std::size_t>(count), {0.0, 0});
  for (std::size_t i : order) {
    auto least =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[least].first += plan.entries[i].cost.seconds;
    ++load[least].second;
    plan.entries[i].shard = static_cast<int>(least) + 1;
  }
  return plan;
}

}  // namespace perfci
