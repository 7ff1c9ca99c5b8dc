#include "perfci/meters/measure.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>

#include "perfci/config/config.h"
#include "perfci/counters/event_resolver.h"
#include "perfci/meters/alloc_bytes.h"
#include "perfci/meters/callgrind_meter.h"
#include "perfci/meters/counters_process.h"
#include "perfci/meters/profile_meter.h"
#include "perfci/meters/wall_meter.h"
#include "perfci/util/error.h"
#include "perfci/util/interrupt.h"

namespace perfci {
namespace {

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

void merge_error(BenchmarkResult& into, const std::string& error) {
  if (error.empty()) return;
  into.error += (into.error.empty() ? "" : "\n") + error;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The wall meter runs every benchmark in one process: its wall-clock time
// is shared out by each benchmark's timed time (iterations x time per
// iteration), evenly where none was timed (a failed benchmark).
void share_wall_cost(const std::vector<BenchmarkResult>& wall,
                     std::vector<BenchmarkResult>& benchmarks, double seconds) {
  std::vector<double> timed;
  double total = 0;
  for (const auto& w : wall) {
    double t = w.real_time_ns ? *w.real_time_ns * static_cast<double>(w.iterations) : 0;
    timed.push_back(t);
    total += t;
  }
  for (std::size_t i = 0; i < benchmarks.size(); ++i)
    benchmarks[i].cost_s["wall"] =
        total > 0 ? seconds * timed[i] / total : seconds / static_cast<double>(benchmarks.size());
}

}  // namespace

RunResults measure_binary(const std::string& binary_in, const MeasureOptions& o) {
  for (const auto& m : o.meters)
    if (!has(known_meters(), m)) throw Error("unknown meter '" + m + "'");
  if (std::find(callgrind_modes().begin(), callgrind_modes().end(), o.callgrind_mode) ==
      callgrind_modes().end())
    throw Error("unknown callgrind mode '" + o.callgrind_mode + "' (auto, hook or process)");
  if (o.profile_source != "cpu-clock" && o.profile_source != "callgrind")
    throw Error("unknown profile source '" + o.profile_source + "' (cpu-clock or callgrind)");
  bool counters = has(o.meters, "counters");
  if (counters) {
    if (o.events.empty()) throw Error("the counters meter needs at least one event");
    for (const auto& e : o.events) resolve_event(e);  // an unknown name is an error up front
  }
  std::error_code ec;
  std::string binary = std::filesystem::absolute(binary_in, ec).string();
  check_binary(binary);

  RunResults results = make_run_results();
  results.binary = binary;
  results.meters = o.meters;
  if (counters) results.events = o.events;

  const std::vector<std::string> names =
      o.names.empty() ? list_benchmarks(binary, o.filter, o.conditions) : o.names;
  auto say = [&](const std::string& s) {
    if (o.progress) o.progress(s);
  };

  for (const auto& n : names) {
    BenchmarkResult b;
    b.name = n;
    results.benchmarks.push_back(std::move(b));
  }

  bool want_callgrind =
      has(o.meters, "callgrind") || (has(o.meters, "profile") && o.profile_source == "callgrind");
  std::regex select;
  try {
    if (want_callgrind) select = std::regex(o.callgrind_filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    throw Error("invalid callgrind filter '" + o.callgrind_filter + "': " + e.what());
  }
  // How many meters still have to measure each benchmark: on an interruption
  // only those every meter finished are kept, so no result is half-made.
  std::vector<int> pending(names.size(), 0);
  for (std::size_t i = 0; i < names.size(); ++i) {
    pending[i] += has(o.meters, "wall") || counters;
    pending[i] += want_callgrind && std::regex_search(names[i], select);
    pending[i] += has(o.meters, "profile") && o.profile_source != "callgrind";
  }

  try {
    if (has(o.meters, "wall") || counters) {
      say("wall" + std::string(counters ? "+counters" : "") + ": " + std::to_string(names.size()) +
          " benchmarks");
      WallOptions w;
      if (counters) w.events = o.events;
      w.min_time = o.min_time;
      w.conditions = o.conditions;
      const auto start = std::chrono::steady_clock::now();
      auto wall = run_wall_meter(binary, names, w, &results.context);
      const double wall_seconds = seconds_since(start);
      for (std::size_t i = 0; i < names.size(); ++i) {
        --pending[i];
        BenchmarkResult& b = results.benchmarks[i];
        merge_error(b, wall[i].error);
        b.iterations = wall[i].iterations;
        if (has(o.meters, "wall")) {
          b.real_time_ns = wall[i].real_time_ns;
          b.cpu_time_ns = wall[i].cpu_time_ns;
        }
        b.counters = wall[i].counters;
        b.transactions_per_iteration = wall[i].transactions_per_iteration;
      }
      if (!names.empty()) share_wall_cost(wall, results.benchmarks, wall_seconds);
      // A benchmark that reported no perf.* counters has no hook: its
      // events are counted on its whole process (counters_process.h).
      if (counters) {
        ProcessCountersOptions pc;
        pc.events = o.events;
        pc.min_time = o.min_time;
        pc.conditions = o.conditions;
        for (std::size_t i = 0; i < names.size(); ++i) {
          BenchmarkResult& b = results.benchmarks[i];
          if (!b.counters.empty() || b.failed()) continue;
          say("counters (hook-free) " + b.name);
          const auto counted = std::chrono::steady_clock::now();
          auto pr = run_counters_process_mode(binary, b.name, pc);
          // The wall+counters processes' cost, as --shard knows it.
          b.cost_s["wall"] += seconds_since(counted);
          merge_error(b, pr.error);
          b.counters = std::move(pr.counters);
        }
      }
    }

    if (want_callgrind) {
      CallgrindOptions c;
      c.iterations = o.callgrind_iterations;
      c.mode = o.callgrind_mode;
      c.cache_sim = o.callgrind_cache_sim;
      c.valgrind = o.valgrind;
      c.alloc_counter = find_alloc_counter();
      c.conditions = o.conditions;
      // valgrind is ~50x slower; a per-run limit sized for native runs would fire.
      c.conditions.timeout = o.conditions.timeout * 20;
      std::size_t k = 0, total = 0;
      for (const auto& n : names) total += std::regex_search(n, select);
      for (std::size_t i = 0; i < names.size(); ++i) {
        auto& b = results.benchmarks[i];
        if (!std::regex_search(b.name, select)) continue;
        say("callgrind " + std::to_string(++k) + "/" + std::to_string(total) + " " + b.name);
        const auto start = std::chrono::steady_clock::now();
        auto cg = run_callgrind_meter(binary, b.name, c);
        b.cost_s["callgrind"] = seconds_since(start);
        merge_error(b, cg.error);
        if (cg.callgrind) b.callgrind = std::move(cg.callgrind);
        --pending[i];
      }
    }

    if (has(o.meters, "profile")) {
      std::size_t k = 0;
      for (std::size_t i = 0; i < names.size(); ++i) {
        auto& b = results.benchmarks[i];
        if (o.profile_source == "callgrind") {
          if (b.callgrind) b.profile = profile_from_callgrind(*b.callgrind, 30);
          continue;
        }
        say("profile " + std::to_string(++k) + "/" + std::to_string(names.size()) + " " + b.name);
        ProfileOptions p;
        p.period_ns = o.profile_period_ns;
        p.min_time = o.min_time;
        p.conditions = o.conditions;
        const auto start = std::chrono::steady_clock::now();
        auto prof = run_profile_meter(binary, b.name, p);
        b.cost_s["profile"] = seconds_since(start);
        merge_error(b, prof.error);
        if (prof.profile) b.profile = std::move(prof.profile);
        --pending[i];
      }
    }
  } catch (const Interrupted& stop) {
    Incomplete inc;
    inc.signo = stop.signal();
    inc.planned = static_cast<int>(names.size());
    std::vector<BenchmarkResult> kept;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (pending[i] <= 0) kept.push_back(std::move(results.benchmarks[i]));
    inc.completed = static_cast<int>(kept.size());
    results.benchmarks = std::move(kept);
    results.incomplete = inc;
    say(inc.reason());
  }
  return results;
}

}  // namespace perfci
