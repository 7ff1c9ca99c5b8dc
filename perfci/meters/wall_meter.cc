#include "perfci/meters/wall_meter.h"

#include <sstream>

#include "perfci/meters/gbench_output.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string filter_for(const std::vector<std::string>& names) {
  std::string f;
  for (const auto& n : names) f += (f.empty() ? "" : "|") + exact_filter(n);
  return f;
}

struct Attempt {
  bool ok = false;
  std::string error;
  std::vector<GbenchRun> runs;
  nlohmann::json context = nlohmann::json::object();
};

Attempt run_once(const std::string& binary, const std::vector<std::string>& names,
                 const WallOptions& o) {
  TempDir dir("perfci-wall");
  std::string out_file = (dir.path() / "gbench.json").string();
  std::vector<std::string> args{"--benchmark_filter=" + filter_for(names),
                                "--benchmark_out=" + out_file, "--benchmark_out_format=json",
                                "--benchmark_format=console"};
  if (o.min_time) {
    std::ostringstream t;
    t << *o.min_time;
    args.push_back("--benchmark_min_time=" + t.str());
  }
  std::map<std::string, std::string> env;
  if (!o.events.empty()) env["PERFCI_EVENTS"] = join(o.events);
  auto r = run_subprocess(benchmark_process(binary, args, o.conditions, env));
  Attempt a;
  if (!r.ok()) {
    a.error = failure_message(binary, r);
    return a;
  }
  const std::string text = read_file(out_file);
  a.runs = parse_gbench_json(text, binary + " (benchmark JSON)");
  a.context = parse_gbench_context(text, binary + " (benchmark JSON)");
  a.ok = true;
  return a;
}

BenchmarkResult to_result(const GbenchRun& run, const WallOptions& o) {
  BenchmarkResult b;
  b.name = run.name;
  b.error = run.error;
  if (!run.error.empty()) return b;
  b.iterations = run.iterations;
  b.real_time_ns = run.real_time_ns;
  b.cpu_time_ns = run.cpu_time_ns;
  if (!o.events.empty()) {
    // Empty without the hook: measure.cc then counts the process hook-free.
    b.counters = counters_from_gbench(run, o.events);
    b.transactions_per_iteration = transactions_from_gbench(run);
  }
  return b;
}

}  // namespace

std::vector<BenchmarkResult> run_wall_meter(const std::string& binary,
                                            const std::vector<std::string>& names,
                                            const WallOptions& options, nlohmann::json* context) {
  std::vector<BenchmarkResult> out;
  if (names.empty()) return out;
  Attempt all = run_once(binary, names, options);
  auto keep_context = [&](const Attempt& a) {
    if (context && context->empty() && !a.context.empty()) *context = a.context;
  };
  keep_context(all);
  for (const auto& name : names) {
    const GbenchRun* found = nullptr;
    if (all.ok)
      for (const auto& run : all.runs)
        if (run.name == name) found = &run;
    if (found) {
      out.push_back(to_result(*found, options));
      continue;
    }
    // Isolate: which benchmark took the process down (or went missing)?
    Attempt alone = run_once(binary, {name}, options);
    keep_context(alone);
    BenchmarkResult b;
    b.name = name;
    if (!alone.ok) {
      b.error = alone.error;
    } else if (alone.runs.empty()) {
      b.error = "the benchmark produced no result";
    } else {
      b = to_result(alone.runs.front(), options);
      b.name = name;
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace perfci
