#include "perfci/app/ab_session.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <regex>

#include "perfci/app/contract_run.h"
#include "perfci/app/run_settings.h"
#include "perfci/env/fingerprint.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/analysis/report_builder.h"
#include "perfci/runner/ab_runner.h"
#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::app {
namespace {

std::string resolve_side(const std::string& path, const AbFlags& f, const std::optional<Config>& config,
                         const char* which) {
  if (path.empty()) throw Error(std::string("no binary or build folder given for ") + which);
  std::error_code ec;
  TargetOptions t;
  t.config_path = f.config_path;
  t.suite = f.suite;
  if (std::filesystem::is_directory(path, ec)) {
    if (!config)
      throw Error(std::string(which) + " is a folder (" + path +
                  "); finding the suite's binary in it needs a perfci.json (--config)");
    t.build_dir = path;
  } else {
    t.binary = path;
  }
  std::string binary = t.resolve_binary(config);
  if (!std::filesystem::exists(binary, ec))
    throw Error(std::string(which) + ": benchmark binary " + binary + " does not exist (is it built?)");
  return std::filesystem::absolute(binary, ec).lexically_normal().string();
}

}  // namespace

std::chrono::seconds parse_duration(const std::string& text, const std::string& what) {
  static const std::regex shape(R"(^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$)");
  std::smatch m;
  if (text.empty() || !std::regex_match(text, m, shape))
    throw Error(what + ": '" + text + "' is not a duration (examples: 90s, 10m, 1h30m)");
  long long s = 0;
  if (m[1].matched) s += std::stoll(m[1]) * 3600;
  if (m[2].matched) s += std::stoll(m[2]) * 60;
  if (m[3].matched) s += std::stoll(m[3]);
  if (s <= 0) throw Error(what + ": '" + text + "' must be longer than zero");
  return std::chrono::seconds(s);
}

bool show_progress(bool quiet) { return !quiet && ::isatty(2); }

void AbFlags::add_to(CLI::App* cmd) {
  cmd->add_option("--config", config_path, "perfci.json (default: ./perfci.json if present)");
  cmd->add_option("--suite", suite, "Suite of perfci.json (default: the only one)");
  cmd->add_option("--filter", filter, "Benchmark regex (Google Benchmark syntax)");
  cmd->add_option("--meter", meters, "Comma list of wall,counters,callgrind,profile");
  auto* p = cmd->add_option("--pairs", pairs, "Pairs of trials (A and B once each)")
                ->check(CLI::Range(1, 10000));
  auto* b = cmd->add_option("--budget", budget, "Run pairs for this long instead (90s, 10m, 1h)");
  p->excludes(b);
  b->excludes(p);
  cmd->add_option("--warmup", warmup, "Warm-up trials per side, discarded")->check(CLI::Range(0, 100));
  cmd->add_option("--confirm-pairs", confirm_pairs,
                  "Fresh pairs to confirm a suspect (default: --pairs, at most 30; 0: off)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--seed", seed, "Seed of the pair order and the bootstrap");
  cmd->add_option("--pin", pin, "Pin every trial to this CPU")->check(CLI::NonNegativeNumber);
  cmd->add_option("--timeout", timeout, "Per trial process (90s, 10m)");
  cmd->add_option("--min-time", min_time, "--benchmark_min_time in seconds")->check(CLI::PositiveNumber);
  cmd->add_option("--callgrind-iterations", callgrind_iterations, "Iterations per benchmark under callgrind")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--profile-source", profile_source, "cpu-clock or callgrind (default)")
      ->check(CLI::IsMember({"cpu-clock", "callgrind"}));
  cmd->add_option("--out", out, "Write the report (JSON, perfci.report/1) here");
  cmd->add_option("--md", md, "Write the Markdown rendering here");
  cmd->add_option("--html", html, "Write the HTML rendering here");
  cmd->add_flag("--no-contracts", no_contracts, "Do not check perfci.json's contracts on the binaries");
  cmd->add_flag("--quiet", quiet, "No progress and no Markdown on stdout");
}

int run_ab_session(const AbFlags& f, SideInput a, SideInput b, const char* command) {
  TargetOptions target;
  target.config_path = f.config_path;
  target.suite = f.suite;
  std::optional<Config> config = target.load();
  const SuiteConfig* suite = target.pick_suite(config);
  a.side.binary = resolve_side(a.path, f, config, "A");
  b.side.binary = resolve_side(b.path, f, config, "B");
  a.side.label = "A";
  b.side.label = "B";

  AbRunOptions o;
  o.measure.meters = !f.meters.empty() ? parse_meter_list(f.meters)
                     : config          ? config->meters
                                       : std::vector<std::string>{"wall"};
  o.measure.events = config ? config->events : default_events();
  if (suite) {
    o.measure.filter = suite->filter;
    o.measure.min_time = suite->min_time;
    o.measure.callgrind_iterations = suite->callgrind.iterations;
    o.measure.callgrind_filter = suite->callgrind.filter;
    o.measure.conditions.args = suite->args;
  }
  if (!f.filter.empty()) {
    o.measure.filter = f.filter;
    o.measure.callgrind_filter = f.filter;
  }
  if (f.min_time) o.measure.min_time = f.min_time;
  if (f.callgrind_iterations) o.measure.callgrind_iterations = *f.callgrind_iterations;
  o.measure.profile_source = f.profile_source;
  o.measure.conditions.pin_cpu = f.pin;
  o.measure.conditions.timeout = parse_duration(f.timeout, "--timeout");
  o.plan.pairs = f.pairs;
  if (!f.budget.empty()) o.plan.budget = parse_duration(f.budget, "--budget");
  o.plan.warmup = f.warmup;
  o.plan.confirm_pairs = f.confirm_pairs ? *f.confirm_pairs : std::min(f.pairs, 30);
  o.plan.seed = f.seed;
  o.analysis.comparison.bootstrap.seed = f.seed;
  if (config) o.policies = MetricPolicies::from_config(config->raw, config->path.string());
  std::vector<analysis::PrefixPair> oracle_pairs =
      config ? analysis::oracle_pairs_from_config(config->raw, config->path.string())
             : std::vector<analysis::PrefixPair>{{"engine/", "sqlite/"}};
  if (show_progress(f.quiet))
    o.progress = [command](const std::string& s) { fmt::print(stderr, "perfci {}: {}\n", command, s); };

  AbRun run = run_ab(a.side.binary, b.side.binary, o);

  if (!f.no_contracts) {
    a.side.contracts = check_config_contracts(config, a.side.binary);
    b.side.contracts = a.side.binary == b.side.binary
                           ? a.side.contracts
                           : check_config_contracts(config, b.side.binary);
  }
  analysis::ReportInputs in;
  in.run = std::move(run);
  in.a = std::move(a.side);
  in.b = std::move(b.side);
  in.machine = collect_fingerprint();
  in.oracle_pairs = oracle_pairs;
  in.settings = {{"command", command},
                 {"config", config ? config->path.string() : ""},
                 {"suite", suite ? suite->name : ""},
                 {"filter", o.measure.filter},
                 {"meters", o.measure.meters},
                 {"events", o.measure.meters.end() != std::find(o.measure.meters.begin(), o.measure.meters.end(), "counters")
                                ? o.measure.events
                                : std::vector<std::string>{}},
                 {"pairs", o.plan.pairs},
                 {"budget_s", o.plan.budget ? nlohmann::json(o.plan.budget->count()) : nlohmann::json(nullptr)},
                 {"warmup", o.plan.warmup},
                 {"confirm_pairs", o.plan.confirm_pairs},
                 {"seed", o.plan.seed},
                 {"pin_cpu", f.pin ? nlohmann::json(*f.pin) : nlohmann::json(nullptr)},
                 {"timeout_s", o.measure.conditions.timeout.count() / 1000},
                 {"min_time_s", o.measure.min_time ? nlohmann::json(*o.measure.min_time) : nlohmann::json(nullptr)},
                 {"callgrind_iterations", o.measure.callgrind_iterations},
                 {"profile_source", o.measure.profile_source},
                 {"aslr", "off"},
                 {"analysis", o.analysis}};
  perfci::Report rep = analysis::build_report(std::move(in));

  if (!f.out.empty()) perfci::save_report(rep, f.out);
  std::string md = report::render_markdown(rep);
  if (!f.md.empty()) write_file_atomic(f.md, md);
  if (!f.html.empty()) write_file_atomic(f.html, report::render_html(rep));
  if (!f.quiet) fmt::print("{}", md);
  int rc = rep.exit_code();
  if (rep.counts.failed)
    fmt::print(stderr, "perfci {}: error: {} benchmark(s) failed:\n", command, rep.counts.failed);
  for (const auto& bench : rep.benchmarks)
    if (bench.run.failed()) fmt::print(stderr, "  {}: {}\n", bench.run.name, bench.run.error);
  if (rep.counts.regressed)
    fmt::print(stderr, "perfci {}: {} benchmark(s) regressed\n", command, rep.counts.regressed);
  return rc;
}

}  // namespace perfci::app
