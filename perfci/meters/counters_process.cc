#include "perfci/meters/counters_process.h"

#include "perfci/counters/process_counters.h"
#include "perfci/meters/gbench_output.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

struct Counted {
  SubprocessResult process;
  std::vector<EventReading> readings;
};

Counted count_process(const std::string& binary, std::vector<std::string> args,
                      const ProcessCountersOptions& o) {
  std::vector<ResolvedEvent> events;
  std::vector<std::pair<std::string, std::string>> unknown;
  for (const auto& name : o.events) {
    std::string error;
    if (auto ev = try_resolve_event(name, &error))
      events.push_back(*ev);
    else
      unknown.emplace_back(name, error);
  }
  ProcessCounters counters(syscall_perf_backend(), std::move(events));
  for (const auto& [name, detail] : unknown) counters.add_unknown(name, detail);
  auto opts = benchmark_process(binary, std::move(args), o.conditions);
  opts.before_exec = [&](int pid) { counters.open(pid); };
  Counted c;
  c.process = run_subprocess(opts);
  c.readings = counters.read();
  return c;
}

}  // namespace

BenchmarkResult run_counters_process_mode(const std::string& binary, const std::string& name,
                                          const ProcessCountersOptions& o) {
  BenchmarkResult b;
  b.name = name;
  const std::string what = "hook-free counters run of " + name;
  const std::vector<std::string> args = single_benchmark_args(name, o.min_time);
  try {
    Counted full = count_process(binary, args, o);
    if (!full.process.ok()) {
      b.error = failure_message(what + ":", full.process);
      return b;
    }
    auto runs = parse_gbench_json(full.process.out, what);
    if (runs.empty()) throw Error("the benchmark produced no result");
    if (!runs.front().error.empty()) {
      b.error = what + ": the benchmark reported an error: " + runs.front().error;
      return b;
    }
    const auto iterations = runs.front().iterations;
    if (iterations <= 0) throw Error("the benchmark reported no iterations");
    Counted once =
        count_process(binary,
                      {"--benchmark_filter=" + exact_filter(name), "--benchmark_format=json",
                       "--benchmark_min_time=0.000000001", "--benchmark_repetitions=1"},
                      o);
    if (!once.process.ok()) {
      b.error = failure_message(what + " (one iteration):", once.process);
      return b;
    }
    b.iterations = iterations;
    for (std::size_t i = 0; i < full.readings.size(); ++i) {
      const EventReading& r = full.readings[i];
      CounterResult c;
      c.event = r.name;
      c.status = r.status;
      c.error = r.error;
      c.mode = "process";
      if (has_value(r.status)) {
        c.per_iteration = r.value / static_cast<double>(iterations);
        c.scale = r.scale;
        if (i < once.readings.size() && has_value(once.readings[i].status))
          c.process_fixed = once.readings[i].value;
      }
      b.counters.push_back(std::move(c));
    }
  } catch (const Error& e) {
    b.error = what + ": " + e.what();
  }
  return b;
}

}  // namespace perfci
