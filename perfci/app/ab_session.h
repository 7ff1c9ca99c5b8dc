// What `perfci ab`, `perfci aa` and `perfci compare` share once they know
// their two binaries: the options of the A/B, the run itself, the contract
// checks of both sides, the report and its files, and the exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "perfci/app/common_flags.h"
#include "perfci/model/report.h"
#include "perfci/runner/ab_runner.h"

namespace perfci::app {

// The common flags (all but --events: an A/B counts perfci.json's) and the
// A/B's own.
struct AbFlags : CommonFlags {
  int pairs = 10;
  std::string budget;  // "10m", "90s", "1h30m"; replaces --pairs
  int warmup = 1;
  std::optional<int> confirm_pairs;  // default: --pairs (at most 30)
  std::uint64_t seed = 1;
  std::string out;   // report JSON
  std::string md;    // Markdown rendering
  std::string html;  // HTML rendering
  bool no_contracts = false;
  std::string shard;  // "K/N": only part K of the benchmarks (perfci merge joins them)
  // --a-json/--b-json: the least change an unpaired verdict claims, its
  // whole interval beyond it (see gbench_ab.h).
  double unpaired_threshold = 0.05;

  AbFlags() { profile_source = "callgrind"; }
  void add_to(CLI::App* cmd);
};

// A side as the user gave it: a binary or a build folder, plus what is known
// about its revision and build.
struct SideInput {
  std::string path;
  perfci::Side side;  // revision, commit, dirty, build filled when known
};

// The suite (nullptr: none) and the flags as the A/B's options: what
// measure_options makes of them, the plan and the seed. No progress
// callback, no metric policies. Throws perfci::Error for a bad value.
AbRunOptions ab_run_options(const SuiteConfig* suite, const AbFlags& flags,
                            const MeasureDefaults& defaults);

// The report's "settings" of an A/B: settings_json plus the plan (pairs,
// budget_s, warmup, confirm_pairs, seed), aslr and the analysis options.
nlohmann::json ab_settings_json(const std::string& command, const std::string& config_path,
                                const std::string& suite, const AbRunOptions& o);

// Runs the A/B and writes the outputs. Returns the exit code: 0 no
// regression, 1 a regression, 2 a failed benchmark, 128 + the signal when
// SIGINT or SIGTERM stopped it (the outputs then say "incomplete"). Throws perfci::Error on
// bad input (main turns it into exit 2). Then records the run in the results
// database, if one is chosen (history_recording.h), with the parents from
// `repo` (empty: the current folder).
int run_ab_session(const AbFlags& flags, SideInput a, SideInput b, const char* command,
                   const std::filesystem::path& repo = {});

// The outputs of an A/B report, paired or not: --out, --md, --html, the
// Markdown on stdout (unless --quiet), the warnings, failures, regressions
// and an interruption on stderr. Returns the report's exit code.
int write_ab_outputs(const Report& report, const AbFlags& flags, const char* command);

}  // namespace perfci::app
