// perfci baseline update [--reason TEXT]: build, run the suite, check the
// contracts and store the results as this profile's baseline, with their
// provenance (commit, date, toolchain, machine, reason).
//
// Rules (see baselines/README.md):
// - replacing an existing baseline needs --reason: the reason is the only
//   record of why the numbers moved; a first baseline may go without one;
// - nothing is written when a benchmark failed (exit 2), a contract is
//   broken (exit 1) or could not be checked (exit 2): a baseline is a state
//   that `perfci check` would pass;
// - the file is written to a temporary file, read back, then renamed over
//   the old one, so a crash or a bad result never leaves a broken baseline.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "perfci/app/check_session.h"
#include "perfci/baseline/baseline_store.h"
#include "perfci/check/baseline_comparison.h"
#include "perfci/cli/commands.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"
#include "perfci/util/timestamp.h"
#include "perfci/version.h"

namespace perfci::cli {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCommand = "baseline update";

struct UpdateArgs {
  SuiteFlags suite;
  std::string reason;
};

int run_update(const UpdateArgs& a) {
  const SuiteFlags& f = a.suite;
  std::string reason = trim(a.reason);
  if (!a.reason.empty() && reason.empty())
    throw Error("--reason is blank; say why the baseline changes");
  PreparedSuite p = prepare_suite(f, kCommand);

  // What is there now decides whether a reason is needed; a corrupt file is
  // replaced (that is the remedy check names), a good one only with a reason.
  bool replacing = false;
  try {
    baseline::Baseline old = baseline::load_baseline(p.baseline_file);
    replacing = true;
    if (reason.empty())
      throw Error(fmt::format(
          "{} holds the baseline made at {} on {} (\"{}\"); replacing it needs --reason \"why the "
          "numbers move\"",
          p.baseline_file.string(),
          old.provenance.commit.empty() ? "no commit" : old.provenance.commit.substr(0, 12),
          old.provenance.created, old.provenance.reason));
  } catch (const baseline::MissingBaseline&) {
    if (reason.empty()) reason = "first baseline for " + p.profile.id;
  } catch (const baseline::CorruptBaseline& e) {
    say(f, kCommand, std::string("replacing an unreadable baseline: ") + e.what());
    if (reason.empty()) reason = "replace an unreadable baseline";
  }

  // A folder that cannot take the file is found out before minutes of
  // measuring (without creating anything yet: a failed run leaves no trace).
  fs::path existing = p.baseline_file.parent_path();
  std::error_code ec;
  while (!existing.empty() && !fs::exists(existing, ec)) existing = existing.parent_path();
  if (existing.empty() || !fs::is_directory(existing, ec) || ::access(existing.c_str(), W_OK) != 0)
    throw Error(p.baseline_file.parent_path().string() + ": cannot write the baseline there (" +
                (existing.empty() ? std::string("no existing folder above it")
                                  : existing.string() + " is not writable") +
                ")");

  MeasuredSuite m = measure_suite(p, f, kCommand);
  // Part of a suite is no baseline: the stored one stays as it was.
  if (m.results.incomplete) {
    fmt::print(stderr, "perfci: error: baseline update: {}; {} left as it was\n",
               m.results.incomplete->reason(), p.baseline_file.string());
    return m.results.incomplete->exit_code();
  }
  // A baseline must hold a state perfci check passes: the same rules as check.
  check::RunProblems problems;
  for (const auto& b : m.results.benchmarks)
    if (b.failed()) problems.errors.push_back(check::failed_benchmark_error(b));
  const check::RunProblems contracts = check::contract_problems(m.contracts);
  problems.errors.insert(problems.errors.end(), contracts.errors.begin(), contracts.errors.end());
  problems.findings = contracts.findings;
  if (const int rc = problems.exit_code()) {
    for (const auto& e : problems.errors)
      fmt::print(stderr, "perfci: error: baseline update: {}\n", e);
    for (const auto& e : problems.findings)
      fmt::print(stderr, "perfci: error: baseline update: {}\n", e);
    fmt::print(stderr,
               "perfci baseline update: a baseline must hold a state perfci check passes; {} left "
               "as it was\n",
               p.baseline_file.string());
    return rc;
  }

  baseline::Baseline b;
  b.profile = p.profile;
  if (m.results.context.contains("library_build_type"))
    b.profile.build_flavour["gbench_library_build_type"] = m.results.context["library_build_type"];
  b.provenance = {p.commit, p.dirty, utc_timestamp(), reason, tool_version()};
  b.settings = p.settings;
  b.contracts = m.contracts;
  b.results = std::move(m.results);
  baseline::save_baseline(b, p.baseline_file);
  std::size_t with_ir = 0;
  for (const auto& r : b.results.benchmarks) with_ir += r.callgrind.has_value();
  fmt::print(
      "perfci baseline update: {} {}: {} benchmarks ({}; callgrind Ir for {}), profile {}, commit "
      "{}{}, reason: {}\n",
      replacing ? "replaced" : "wrote", p.baseline_file.string(), b.results.benchmarks.size(),
      fmt::join(b.settings.meters, ","), with_ir, p.profile.id,
      p.commit.empty() ? "none" : p.commit.substr(0, 12), p.dirty ? " (uncommitted changes)" : "",
      reason);
  return 0;
}

}  // namespace

void add_baseline_command(CLI::App& app, CommandRunner* runner) {
  auto* cmd =
      app.add_subcommand("baseline", "Manage the stored baselines perfci check compares with");
  cmd->require_subcommand(1);
  auto args = std::make_shared<UpdateArgs>();
  auto* update = cmd->add_subcommand(
      "update", "Build, run the suite and store the results as this profile's baseline");
  args->suite.add_to(update);
  update->add_option("--reason", args->reason,
                     "Why the baseline changes (required when one exists; kept in its provenance)");
  update->callback([runner, args] { *runner = [args] { return run_update(*args); }; });
}

}  // namespace perfci::cli
