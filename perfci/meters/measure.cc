#include "perfci/meters/measure.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "perfci/config/config.h"
#include "perfci/counters/event_resolver.h"
#include "perfci/meters/callgrind_meter.h"
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

}  // namespace

RunResults measure_binary(const std::string& binary_in, const MeasureOptions& o) {
  for (const auto& m : o.meters)
    if (!has(known_meters(), m)) throw Error("unknown meter '" + m + "'");
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
      auto wall = run_wall_meter(binary, names, w);
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
    }

    if (want_callgrind) {
      CallgrindOptions c;
      c.iterations = o.callgrind_iterations;
      c.valgrind = o.valgrind;
      c.conditions = o.conditions;
      // valgrind is ~50x slower; a per-run limit sized for native runs would fire.
      c.conditions.timeout = o.conditions.timeout * 20;
      std::size_t k = 0, total = 0;
      for (const auto& n : names) total += std::regex_search(n, select);
      for (std::size_t i = 0; i < names.size(); ++i) {
        auto& b = results.benchmarks[i];
        if (!std::regex_search(b.name, select)) continue;
        say("callgrind " + std::to_string(++k) + "/" + std::to_string(total) + " " + b.name);
        auto cg = run_callgrind_meter(binary, b.name, c);
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
        auto prof = run_profile_meter(binary, b.name, p);
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
