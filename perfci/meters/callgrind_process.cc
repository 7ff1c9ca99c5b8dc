#include "perfci/meters/callgrind_process.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "perfci/meters/callgrind_counts.h"
#include "perfci/meters/gbench_output.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The demangler prints LambdaBenchmark<...>::Run's parameter without its
// '&' (binutils' c++filt does the same).
bool takes_state(const std::string& name) {
  return ends_with(name, "(benchmark::State&)") || ends_with(name, "(benchmark::State)");
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Google Benchmark decides how many iterations a call gets from the clock
// once a call took min_time / 10; below that it multiplies by ten. No call
// of a benchmark measured here comes near 10^4 s.
constexpr const char* kNeverSignificantMinTime = "100000";
// Calls 2 and 3 of the tenfold sequence.
constexpr std::uint64_t kSmallCall = 10, kLargeCall = 100;
constexpr int kLargeCallPart = 3;

// callgrind writes the totals line last: a part that has it is complete.
bool part_complete(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size <= 0) return false;
  const std::streamoff from = std::max<std::streamoff>(0, size - 256);
  in.seekg(from);
  std::string tail(static_cast<std::size_t>(size - from), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  return tail.find("\ntotals:") != std::string::npos && tail.back() == '\n';
}

std::vector<std::string> callgrind_args(const std::string& out_file,
                                        const std::vector<std::string>& extra,
                                        const std::string& binary, const CallgrindOptions& o,
                                        const std::string& name,
                                        const std::vector<std::string>& benchmark_flags) {
  std::vector<std::string> args{"--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
                                "--callgrind-out-file=" + out_file};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(binary);
  args.insert(args.end(), o.conditions.args.begin(), o.conditions.args.end());
  args.push_back("--benchmark_filter=" + exact_filter(name));
  args.insert(args.end(), benchmark_flags.begin(), benchmark_flags.end());
  args.push_back("--benchmark_format=json");
  return args;
}

// The benchmark's runs from its JSON on stdout; a program that does not
// write Google Benchmark's JSON is not one.
std::vector<GbenchRun> benchmark_runs(const std::string& json) {
  try {
    return parse_gbench_json(json, "its output");
  } catch (const Error& e) {
    throw Error(std::string("not a Google Benchmark binary (") + e.what() + ")");
  }
}

// The benchmark's own error (SkipWithError) from its JSON, if any.
std::string benchmark_error(const std::string& json) {
  for (const auto& run : benchmark_runs(json))
    if (!run.error.empty()) return run.error;
  return "";
}

}  // namespace

std::string find_benchmark_entry(const CallgrindProfile& profile) {
  std::vector<std::string> runners;
  for (const auto& e : profile.calls)
    if (starts_with(e.callee, "benchmark::State::State(")) runners.push_back(e.caller);
  if (runners.empty())
    throw Error(
        "no call of benchmark::State's constructor: not a Google Benchmark binary, or the "
        "benchmark did not run");
  std::vector<std::string> entries;
  for (const auto& e : profile.calls) {
    if (std::find(runners.begin(), runners.end(), e.caller) == runners.end()) continue;
    if (!takes_state(e.callee) || starts_with(e.callee, "benchmark::State::")) continue;
    if (std::find(entries.begin(), entries.end(), e.callee) == entries.end())
      entries.push_back(e.callee);
  }
  if (entries.size() != 1) {
    std::string seen;
    for (const auto& e : profile.calls)
      if (std::find(runners.begin(), runners.end(), e.caller) != runners.end())
        seen += (seen.empty() ? "" : ", ") + e.callee;
    throw Error(std::string(entries.empty() ? "no" : "more than one") +
                " function taking benchmark::State& is called by Google Benchmark's runner (" +
                runners.front() + " calls: " + seen + "); is the binary stripped of its symbols?");
  }
  return entries.front();
}

CallgrindResult fit_two_calls(const CallgrindProfile& small, std::uint64_t n1,
                              const CallgrindProfile& large, std::uint64_t n2,
                              std::size_t top_functions) {
  if (n2 <= n1) throw Error("the fit needs two calls of different iteration counts");
  if (large.total_ir < small.total_ir)
    throw Error("the call of " + std::to_string(n2) + " iterations cost less (" +
                std::to_string(large.total_ir) + " Ir) than the call of " + std::to_string(n1) +
                " (" + std::to_string(small.total_ir) +
                " Ir): the cost does not grow with iterations");
  CallgrindResult c;
  c.mode = "process";
  c.fit_iterations = {n1, n2};
  c.iterations = n2 - n1;
  c.total_ir = large.total_ir - small.total_ir;
  c.ir_per_iteration = static_cast<double>(c.total_ir) / static_cast<double>(c.iterations);
  c.setup_ir = static_cast<double>(small.total_ir) - static_cast<double>(n1) * c.ir_per_iteration;
  std::map<std::pair<std::string, std::string>, FunctionCost> before;
  for (const auto& f : small.functions) before[{f.object, f.name}] = f;
  for (const auto& f : large.functions) {
    FunctionCost d = f;
    auto it = before.find({f.object, f.name});
    if (it != before.end()) {
      // A function that cost more in the smaller call belongs to setup that
      // varies between calls: none of it is per iteration.
      d.self_ir = f.self_ir > it->second.self_ir ? f.self_ir - it->second.self_ir : 0;
      d.inclusive_ir =
          f.inclusive_ir > it->second.inclusive_ir ? f.inclusive_ir - it->second.inclusive_ir : 0;
      auto less = [](std::optional<std::uint64_t> x, std::optional<std::uint64_t> y) {
        return x && y ? std::optional<std::uint64_t>(*x > *y ? *x - *y : 0) : x;
      };
      d.self_l1_misses = less(f.self_l1_misses, it->second.self_l1_misses);
      d.self_ll_misses = less(f.self_ll_misses, it->second.self_ll_misses);
    }
    if (d.inclusive_ir > 0) c.functions.push_back(std::move(d));
  }
  std::sort(c.functions.begin(), c.functions.end(),
            [](const FunctionCost& a, const FunctionCost& b) {
              return a.self_ir != b.self_ir ? a.self_ir > b.self_ir : a.name < b.name;
            });
  c.functions.resize(std::min(c.functions.size(), top_functions));
  const ProfileCounts before_counts = profile_counts(small);
  set_per_iteration_counts(c, profile_counts(large), &before_counts, c.iterations);
  return c;
}

BenchmarkResult run_callgrind_process_mode(const std::string& binary, const std::string& name,
                                           const CallgrindOptions& o) {
  BenchmarkResult b;
  b.name = name;
  const std::string what = "hook-free callgrind run of " + name;
  // Google Benchmark's name says how the benchmark is registered.
  if (name.find("/threads:") != std::string::npos && name.find("/threads:1") == std::string::npos) {
    b.error = what +
              ": a benchmark run by several threads is not supported hook-free (each "
              "thread calls the function); use perfci::BenchHook";
    return b;
  }
  if (name.find("/min_time:") != std::string::npos) {
    b.error = what +
              ": the benchmark sets its own MinTime(), so Google Benchmark sizes its calls by the "
              "clock and no two runs would agree; use perfci::BenchHook";
    return b;
  }
  const bool fixed_iterations = name.find("/iterations:") != std::string::npos;
  TempDir dir("perfci-cgp");
  ProcessConditions valgrind_conditions = o.conditions;
  valgrind_conditions.args.clear();
  try {
    // 1. Which function does Google Benchmark run?
    const std::string discover_out = (dir.path() / "discover.out").string();
    auto r = run_subprocess(benchmark_process(
        o.valgrind,
        callgrind_args(discover_out, {}, binary, o, name,
                       {"--benchmark_min_time=0.000000001", "--benchmark_repetitions=1"}),
        valgrind_conditions));
    if (!r.ok()) {
      b.error = failure_message(what + " (finding the benchmark's function):", r);
      return b;
    }
    if (auto e = benchmark_error(r.out); !e.empty()) {
      b.error = what + ": the benchmark reported an error: " + e;
      return b;
    }
    const std::string entry =
        find_benchmark_entry(parse_callgrind_output(read_file(discover_out), discover_out));

    // 2. Collect only inside it, one dump per call.
    const std::string out = (dir.path() / "cg.out").string();
    std::vector<std::string> collect{"--collect-atstart=no", "--toggle-collect=" + entry,
                                     "--dump-after=" + entry};
    for (auto& a : cache_sim_args(o)) collect.push_back(std::move(a));
    auto part = [&](int k) { return out + "." + std::to_string(k); };
    SubprocessOptions opts;
    if (fixed_iterations) {
      // Every call has the benchmark's own count: two repetitions, the
      // second call (warm) is measured.
      opts = benchmark_process(
          o.valgrind, callgrind_args(out, collect, binary, o, name, {"--benchmark_repetitions=2"}),
          valgrind_conditions);
    } else {
      opts = benchmark_process(
          o.valgrind,
          callgrind_args(out, collect, binary, o, name,
                         {std::string("--benchmark_min_time=") + kNeverSignificantMinTime,
                          "--benchmark_repetitions=1"}),
          valgrind_conditions);
      opts.stop_when = [&] { return part_complete(part(kLargeCallPart)); };
    }
    r = run_subprocess(opts);
    if (fixed_iterations) {
      if (!r.ok()) {
        b.error = failure_message(what + ":", r);
        return b;
      }
      if (auto e = benchmark_error(r.out); !e.empty()) {
        b.error = what + ": the benchmark reported an error: " + e;
        return b;
      }
      auto runs = benchmark_runs(r.out);
      if (runs.empty() || runs.front().iterations <= 0 || !part_complete(part(2)))
        throw Error("no second call of " + entry + " was recorded");
      auto profile = parse_callgrind_output(read_file(part(2)), part(2));
      CallgrindResult c;
      set_per_iteration_counts(c, profile_counts(profile), nullptr,
                               static_cast<std::uint64_t>(runs.front().iterations));
      c.mode = "process";
      c.iterations = static_cast<std::uint64_t>(runs.front().iterations);
      c.fit_iterations = {c.iterations};
      c.total_ir = profile.total_ir;
      c.ir_per_iteration = static_cast<double>(c.total_ir) / static_cast<double>(c.iterations);
      profile.functions.resize(std::min(profile.functions.size(), o.top_functions));
      c.functions = std::move(profile.functions);
      c.entry = entry;
      b.callgrind = std::move(c);
      return b;
    }
    if (!r.stopped) {
      if (r.ok()) {
        if (auto e = benchmark_error(r.out); !e.empty()) {
          b.error = what + ": the benchmark reported an error: " + e;
          return b;
        }
        b.error = what + ": the process ended before the third call of " + entry +
                  "; Google Benchmark did not grow the iteration count tenfold (does the "
                  "benchmark set its own iteration count or time?)";
      } else {
        b.error = failure_message(what + ":", r);
      }
      return b;
    }
    CallgrindResult c = fit_two_calls(
        parse_callgrind_output(read_file(part(2)), part(2)), kSmallCall,
        parse_callgrind_output(read_file(part(3)), part(3)), kLargeCall, o.top_functions);
    c.entry = entry;
    b.callgrind = std::move(c);
  } catch (const Error& e) {
    b.error = what + ": " + e.what();
  }
  return b;
}

}  // namespace perfci
