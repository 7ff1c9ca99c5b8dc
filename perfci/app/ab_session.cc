#include "perfci/app/ab_session.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "perfci/analysis/report_builder.h"
#include "perfci/analysis/scaling_contract.h"
#include "perfci/app/contract_run.h"
#include "perfci/app/history_recording.h"
#include "perfci/app/run_settings.h"
#include "perfci/env/fingerprint.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/runner/ab_runner.h"
#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::app {
namespace {

std::string resolve_side(const std::string& path, const AbFlags& f,
                         const std::optional<Config>& config, const char* which) {
  if (path.empty()) throw Error(std::string("no binary or build folder given for ") + which);
  std::error_code ec;
  TargetOptions t;
  if (std::filesystem::is_directory(path, ec)) {
    if (!config)
      throw Error(std::string(which) + " is a folder (" + path +
                  "); finding the suite's binary in it needs a perfci.json (--config)");
    t.build_dir = path;
  } else {
    // A Google Benchmark JSON file given where a binary belongs: say which
    // flags take it, rather than "not an executable".
    std::ifstream in(path);
    char first = 0;
    if (in >> first && first == '{')
      throw Error(std::string(which) + ": " + path +
                  " is a JSON file, not a benchmark binary: two Google Benchmark files "
                  "(--benchmark_out) are compared, unpaired, with --a-json A.json --b-json B.json");
    t.binary = path;
  }
  std::string binary = t.resolve_binary(f, config);
  if (!std::filesystem::exists(binary, ec))
    throw Error(std::string(which) + ": benchmark binary " + binary +
                " does not exist (is it built?)");
  return std::filesystem::absolute(binary, ec).lexically_normal().string();
}

}  // namespace

void AbFlags::add_to(CLI::App* cmd) {
  add_common_flags(cmd, *this, kAbFlags);
  auto* p = cmd->add_option("--pairs", pairs, "Pairs of trials (A and B once each)")
                ->check(CLI::Range(1, 10000));
  auto* b = cmd->add_option("--budget", budget,
                            "Run pairs for this long instead (90s, 10m, 1h30m; a plain number is "
                            "seconds)");
  p->excludes(b);
  b->excludes(p);
  cmd->add_option("--warmup", warmup, "Warm-up trials per side, discarded")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--confirm-pairs", confirm_pairs,
                  "Fresh pairs to confirm a suspect (default: --pairs, at most 30; 0: off)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--seed", seed, "Seed of the pair order and the bootstrap");
  cmd->add_option("--out", out, "Write the report (JSON, perfci.report/1) here");
  cmd->add_option("--md", md, "Write the Markdown rendering here");
  cmd->add_option("--html", html, "Write the HTML rendering here");
  cmd->add_flag("--no-contracts", no_contracts,
                "Do not check perfci.json's contracts on the binaries");
  cmd->add_option("--shard", shard,
                  "Run only part K of N (K/N, e.g. 2/3) of the benchmarks, split by count; "
                  "`perfci merge` joins the parts' reports into one");
}

AbRunOptions ab_run_options(const SuiteConfig* suite, const AbFlags& f,
                            const MeasureDefaults& defaults) {
  AbRunOptions o;
  o.measure = measure_options(suite, f, defaults);
  o.plan.pairs = f.pairs;
  if (!f.budget.empty()) o.plan.budget = parse_duration(f.budget, "--budget");
  o.plan.warmup = f.warmup;
  o.plan.confirm_pairs = f.confirm_pairs ? *f.confirm_pairs : std::min(f.pairs, 30);
  o.plan.seed = f.seed;
  o.analysis.comparison.bootstrap.seed = f.seed;
  if (!f.shard.empty()) o.shard = parse_shard(f.shard);
  return o;
}

nlohmann::json ab_settings_json(const std::string& command, const std::string& config_path,
                                const std::string& suite, const AbRunOptions& o) {
  nlohmann::json j = settings_json(command, config_path, suite, o.measure);
  j["pairs"] = o.plan.pairs;
  j["budget_s"] = o.plan.budget ? nlohmann::json(o.plan.budget->count()) : nlohmann::json(nullptr);
  j["warmup"] = o.plan.warmup;
  j["confirm_pairs"] = o.plan.confirm_pairs;
  j["seed"] = o.plan.seed;
  j["aslr"] = "off";
  j["analysis"] = o.analysis;
  if (o.shard) j["shard"] = format_shard(*o.shard);
  return j;
}

int run_ab_session(const AbFlags& f, SideInput a, SideInput b, const char* command,
                   const std::filesystem::path& repo) {
  std::optional<Config> config = load_optional_config(f);
  const SuiteConfig* suite = pick_suite(f, config);
  a.side.binary = resolve_side(a.path, f, config, "A");
  b.side.binary = resolve_side(b.path, f, config, "B");
  a.side.label = "A";
  b.side.label = "B";

  AbRunOptions o = ab_run_options(suite, f, measure_defaults(config));
  if (config) o.policies = MetricPolicies::from_config(config->raw, config->path.string());
  std::vector<analysis::PrefixPair> oracle_pairs =
      config ? analysis::oracle_pairs_from_config(config->raw, config->path.string())
             : std::vector<analysis::PrefixPair>{};
  if (show_progress(f.quiet)) o.progress = progress_printer(command);

  AbRun run = run_ab(a.side.binary, b.side.binary, o);

  // Stopped by a signal: the report of what was measured, nothing more.
  if (!f.no_contracts && !run.incomplete) {
    a.side.contracts = check_config_contracts(config, a.side.binary);
    b.side.contracts = a.side.binary == b.side.binary
                           ? a.side.contracts
                           : check_config_contracts(config, b.side.binary);
    // Scaling contracts from each side's own samples; only the families
    // this run measured (a --filter may leave others out).
    const std::vector<contracts::Contract> declared = config_contracts(config);
    for (auto* side : {&a.side, &b.side})
      analysis::add_scaling_results(
          side->contracts, declared, side->binary,
          [&](const std::string& kind, const std::string& metric) {
            return analysis::side_samples(run, side == &b.side, kind, metric);
          },
          true);
  }
  analysis::ReportInputs in;
  in.run = std::move(run);
  in.a = std::move(a.side);
  in.b = std::move(b.side);
  in.machine = collect_fingerprint();
  in.oracle_pairs = oracle_pairs;
  in.settings =
      ab_settings_json(command, config ? config->path.string() : "", suite ? suite->name : "", o);
  // What `perfci merge` needs to compute the gaps of pairs that ran in
  // different parts.
  in.settings["oracle_pairs"] = nlohmann::json::array();
  for (const auto& p : oracle_pairs)
    in.settings["oracle_pairs"].push_back({{"measured", p.measured}, {"oracle", p.oracle}});
  std::optional<ShardPlan> shard_plan = in.run.shard_plan;
  perfci::Report rep = analysis::build_report(std::move(in));
  if (o.shard) rep.shard = ShardSection{*o.shard, *shard_plan};

  const int rc = write_ab_outputs(rep, f, command);
  record_report(f, config, rep, command, repo);
  return rc;
}

int write_ab_outputs(const Report& rep, const AbFlags& f, const char* command) {
  if (!f.out.empty()) perfci::save_report(rep, f.out);
  std::string md = report::render_markdown(rep);
  if (!f.md.empty()) write_file_atomic(f.md, md);
  if (!f.html.empty()) write_file_atomic(f.html, report::render_html(rep));
  if (!f.quiet) fmt::print("{}", md);
  for (const auto& w : rep.warnings) fmt::print(stderr, "perfci {}: warning: {}\n", command, w);
  int rc = rep.exit_code();
  if (rep.counts.failed)
    fmt::print(stderr, "perfci: error: {}: {} benchmark(s) failed:\n", command, rep.counts.failed);
  for (const auto& bench : rep.benchmarks)
    if (bench.run.failed()) fmt::print(stderr, "  {}: {}\n", bench.run.name, bench.run.error);
  if (rep.counts.regressed)
    fmt::print(stderr, "perfci {}: {} benchmark(s) regressed\n", command, rep.counts.regressed);
  if (rep.incomplete)
    fmt::print(stderr, "perfci: error: {}: {}{}\n", command, rep.incomplete->reason(),
               f.out.empty() ? "" : "; the report of what was measured is " + f.out);
  return rc;
}

}  // namespace perfci::app
