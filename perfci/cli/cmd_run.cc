// perfci run: measure one benchmark binary once with the chosen meters and
// write the results record (perfci/model/results.h).
#include <fmt/core.h>
#include <unistd.h>

#include <memory>

#include "perfci/cli/commands.h"
#include "perfci/app/run_settings.h"
#include "perfci/env/build_info.h"
#include "perfci/env/fingerprint.h"
#include "perfci/meters/measure.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"

namespace perfci::cli {
namespace {

struct RunArgs {
  TargetOptions target;
  std::string filter;
  std::string meters;
  std::string events;
  std::string out;
  std::string profile_source = "cpu-clock";
  std::optional<int> pin;
  std::optional<double> min_time;
  std::optional<int> callgrind_iterations;
  double timeout_s = 600;
  bool quiet = false;
};

std::string format_ns(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{:.2f} ns", ns);
}

void print_summary(const RunResults& r) {
  for (const auto& b : r.benchmarks) {
    if (b.failed()) {
      fmt::print("{}  FAILED: {}\n", b.name, b.error);
      continue;
    }
    std::string line = b.name;
    if (b.real_time_ns)
      line += fmt::format("  {} /iter (cpu {}), {} iterations", format_ns(*b.real_time_ns),
                          format_ns(*b.cpu_time_ns), b.iterations);
    fmt::print("{}\n", line);
    for (const auto& c : b.counters) {
      if (c.per_iteration)
        fmt::print("    {:<18} {:>14.2f} /iter{}{}\n", c.event, *c.per_iteration,
                   c.per_transaction ? fmt::format("  {:.2f} /txn", *c.per_transaction) : "",
                   c.status == EventStatus::kMultiplexed ? fmt::format("  (scaled x{:.2f})", c.scale) : "");
      else
        fmt::print("    {:<18} {}{}\n", c.event, to_string(c.status),
                   c.error ? fmt::format(" (errno {})", c.error) : "");
    }
    if (b.callgrind)
      fmt::print("    callgrind          {:>14.1f} Ir/iter ({} iterations, {} Ir)\n",
                 b.callgrind->ir_per_iteration, b.callgrind->iterations, b.callgrind->total_ir);
    if (b.profile) {
      fmt::print("    profile ({}, {} samples):\n", b.profile->source, b.profile->samples);
      for (std::size_t i = 0; i < b.profile->symbols.size() && i < 5; ++i) {
        const auto& s = b.profile->symbols[i];
        fmt::print("      {:5.1f}%  {}{}\n", 100 * s.share, s.symbol,
                   s.inlined_into.empty() ? "" : " (inlined into " + s.inlined_into + ")");
      }
    }
  }
}

int run(const RunArgs& a) {
  auto config = a.target.load();
  const SuiteConfig* suite = a.target.pick_suite(config);
  std::string binary = a.target.resolve_binary(config);

  MeasureOptions m;
  m.meters = !a.meters.empty() ? parse_meter_list(a.meters)
             : config          ? config->meters
                               : std::vector<std::string>{"wall"};
  m.events = !a.events.empty() ? split_list(a.events) : config ? config->events : default_events();
  if (suite) {
    m.filter = suite->filter;
    m.min_time = suite->min_time;
    m.callgrind_iterations = suite->callgrind.iterations;
    m.callgrind_filter = suite->callgrind.filter;
    m.conditions.args = suite->args;
  }
  if (!a.filter.empty()) {
    m.filter = a.filter;
    m.callgrind_filter = a.filter;
  }
  if (a.min_time) m.min_time = a.min_time;
  if (a.callgrind_iterations) m.callgrind_iterations = *a.callgrind_iterations;
  m.profile_source = a.profile_source;
  m.conditions.pin_cpu = a.pin;
  m.conditions.timeout = std::chrono::milliseconds(static_cast<long long>(a.timeout_s * 1000));
  if (!a.quiet && ::isatty(2))
    m.progress = [](const std::string& s) { fmt::print(stderr, "perfci run: {}\n", s); };

  RunResults results = measure_binary(binary, m);
  nlohmann::json env = collect_fingerprint();
  try {
    env["build"] = read_build_info(results.binary);
  } catch (const Error&) {
    env["build"] = nullptr;  // a script wrapper, not ELF: still measurable
  }
  results.environment = env;
  if (!a.out.empty()) save_run_results(results, a.out);
  if (!a.quiet) print_summary(results);
  std::size_t failed = 0;
  for (const auto& b : results.benchmarks) failed += b.failed();
  if (failed) {
    fmt::print(stderr, "perfci run: error: {} of {} benchmarks failed\n", failed,
               results.benchmarks.size());
    return 2;
  }
  return 0;
}

}  // namespace

void add_run_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Measure a benchmark binary once and write its results");
  args->target.add_to(cmd);
  cmd->add_option("--filter", args->filter, "Benchmark regex (Google Benchmark syntax)");
  cmd->add_option("--meter", args->meters, "Comma list of wall,counters,callgrind,profile");
  cmd->add_option("--events", args->events, "Comma list of perf events for the counters meter");
  cmd->add_option("--out", args->out, "Write the results JSON here");
  cmd->add_option("--pin", args->pin, "Pin the benchmark to this CPU");
  cmd->add_option("--min-time", args->min_time, "--benchmark_min_time in seconds")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--callgrind-iterations", args->callgrind_iterations,
                  "Iterations per benchmark under callgrind")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--profile-source", args->profile_source, "cpu-clock or callgrind")
      ->check(CLI::IsMember({"cpu-clock", "callgrind"}));
  cmd->add_option("--timeout", args->timeout_s, "Seconds before a benchmark process is killed")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--quiet", args->quiet, "No summary, no progress");
  cmd->callback([runner, args] { *runner = [args] { return run(*args); }; });
}

}  // namespace perfci::cli
