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

#include "perfci/baseline/baseline_store.h"
#include "perfci/cli/check_session.h"
#include "perfci/cli/commands.h"
#include "perfci/util/error.h"
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

std::string trimmed(const std::string& s) {
  auto a = s.find_first_not_of(" \t\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\n") - a + 1);
}

int run_update(const UpdateArgs& a) {
  const SuiteFlags& f = a.suite;
  std::string reason = trimmed(a.reason);
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
  std::vector<std::string> failed;
  for (const auto& b : m.results.benchmarks)
    if (b.failed()) failed.push_back(b.name + ": " + b.error.substr(0, b.error.find('\n')));
  if (!failed.empty()) {
    for (const auto& line : failed)
      fmt::print(stderr, "perfci baseline update: error: benchmark {}\n", line);
    fmt::print(stderr, "perfci baseline update: error: {} benchmark(s) failed; {} left as it was\n",
               failed.size(), p.baseline_file.string());
    return 2;
  }
  int contracts_rc = 0;
  if (m.contracts.is_object()) {
    if (m.contracts.contains("error")) {
      fmt::print(stderr, "perfci baseline update: error: contracts could not be checked: {}\n",
                 m.contracts["error"].get<std::string>());
      contracts_rc = 2;
    }
    for (const auto& c : m.contracts.value("contracts", nlohmann::json::array())) {
      std::string status = c.value("status", "");
      if (status == "ok") continue;
      fmt::print(stderr, "perfci baseline update: {}: contract {}: {}\n",
                 status == "broken" ? "broken" : "error", c.value("name", c.value("kind", "")),
                 c.value("message", ""));
      contracts_rc = std::max(contracts_rc, status == "broken" ? 1 : 2);
    }
  }
  if (contracts_rc) {
    fmt::print(stderr,
               "perfci baseline update: a baseline must hold a state perfci check passes; {} left "
               "as it was\n",
               p.baseline_file.string());
    return contracts_rc;
  }

  baseline::Baseline b;
  b.profile = p.profile;
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
