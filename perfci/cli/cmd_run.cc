// perfci run: measure one benchmark binary once with the chosen meters and
// write the results record (perfci/model/results.h), or with --format gbench
// a Google Benchmark JSON file (perfci/model/gbench_json.h).
#include <fmt/core.h>

#include <algorithm>
#include <memory>

#include "perfci/app/history_recording.h"
#include "perfci/app/run_settings.h"
#include "perfci/cli/commands.h"
#include "perfci/env/build_info.h"
#include "perfci/env/fingerprint.h"
#include "perfci/meters/measure.h"
#include "perfci/model/gbench_json.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::cli {
namespace {

struct RunArgs {
  CommonFlags flags;
  TargetOptions target;
  std::string out;
  std::string format = "perfci";  // of --out: perfci (perfci.results/1) or gbench
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
                   c.status == EventStatus::kMultiplexed
                       ? fmt::format("  (scaled x{:.2f})", c.scale)
                       : "");
      else
        fmt::print("    {:<18} {}{}\n", c.event, to_string(c.status),
                   c.error ? fmt::format(" (errno {})", c.error) : "");
    }
    if (b.callgrind)
      fmt::print("    callgrind          {:>14.1f} Ir/iter ({} iterations, {} Ir)\n",
                 b.callgrind->ir_per_iteration, b.callgrind->iterations, b.callgrind->total_ir);
    if (b.callgrind && b.callgrind->allocations) {
      const Allocations& al = *b.callgrind->allocations;
      fmt::print("    allocations        {:>14.2f} /iter{}\n", al.per_iteration,
                 al.sites.empty() ? "" : "  (most from " + al.sites.front().function + ")");
      if (al.bytes_per_iteration)
        fmt::print("    allocated bytes    {:>14.1f} /iter\n", *al.bytes_per_iteration);
      else if (!al.bytes_unmeasured.empty())
        fmt::print("    allocated bytes    not measured: {}\n", al.bytes_unmeasured);
    }
    if (b.callgrind && b.callgrind->cache) {
      const CacheCounts& k = *b.callgrind->cache;
      fmt::print(
          "    cache (simulated)  {:>14.1f} L1 misses/iter ({:.1f} I + {:.1f} D), {:.1f} LL, "
          "{:.0f} estimated cycles\n",
          k.l1_misses(), k.l1i_misses, k.l1d_misses, k.ll_misses(),
          k.estimated_cycles(b.callgrind->ir_per_iteration));
    }
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
  auto config = load_optional_config(a.flags);
  const SuiteConfig* suite = pick_suite(a.flags, config);
  std::string binary = a.target.resolve_binary(a.flags, config);

  MeasureOptions m = measure_options(suite, a.flags, measure_defaults(config));
  const bool gbench = a.format == "gbench";
  // Google Benchmark's format has no way to say "not timed": refuse before
  // measuring rather than after.
  if (gbench && std::find(m.meters.begin(), m.meters.end(), "wall") == m.meters.end())
    throw Error(
        "--format gbench needs the wall meter (Google Benchmark's format has real_time and "
        "cpu_time for every benchmark): add wall to --meters");
  if (show_progress(a.flags.quiet)) m.progress = progress_printer("run");

  RunResults results = measure_binary(binary, m);
  nlohmann::json env = collect_fingerprint();
  try {
    env["build"] = read_build_info(results.binary);
  } catch (const Error&) {
    env["build"] = nullptr;  // a script wrapper, not ELF: still measurable
  }
  results.environment = env;
  for (const std::string& w :
       provenance_warnings("the measured binary", env["build"], results.context))
    fmt::print(stderr, "perfci run: warning: {}\n", w);
  if (gbench) {
    const std::string text = to_gbench_json(results).dump(2) + "\n";
    if (a.out.empty())
      fmt::print("{}", text);  // stdout is the file: no summary
    else
      write_file_atomic(a.out, text);
  } else if (!a.out.empty()) {
    save_run_results(results, a.out);
  }
  if (!a.flags.quiet && !(gbench && a.out.empty())) print_summary(results);
  record_results(a.flags, config, results);
  if (results.incomplete) {
    fmt::print(stderr, "perfci: error: run: {}{}\n", results.incomplete->reason(),
               a.out.empty() ? "" : "; the results of what was measured are in " + a.out);
    return results.incomplete->exit_code();
  }
  std::size_t failed = 0;
  for (const auto& b : results.benchmarks) failed += b.failed();
  if (failed) {
    fmt::print(stderr, "perfci: error: run: {} of {} benchmarks failed\n", failed,
               results.benchmarks.size());
    return 2;
  }
  return 0;
}

}  // namespace

void add_run_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Measure a benchmark binary once and write its results");
  add_common_flags(cmd, args->flags, kRunFlags);
  args->target.add_to(cmd);
  cmd->add_option("--out", args->out, "Write the results JSON here");
  cmd->add_option("--format", args->format,
                  "Format of --out: perfci (perfci.results/1, default) or gbench (Google "
                  "Benchmark's JSON, for compare.py and other GB tools; stdout without --out)")
      ->check(CLI::IsMember({"perfci", "gbench"}));
  cmd->callback([runner, args] { *runner = [args] { return run(*args); }; });
}

}  // namespace perfci::cli
