// perfci merge PART.json...: the partial reports of one sharded run
// (`check`, `ab`, `aa` or `compare` with --shard K/N on N CI jobs) joined
// into the whole suite's report and verdict; writes <out>/<commit>.json and
// <out>/latest.{json,md,html} as check does. Exit: the merged report's code
// (check: 0 pass, 1 fail, 2 error, 3 not gated; an A/B: 0, 1 a regression,
// 2 a failed benchmark); 2 when the parts are not one run (missing or
// duplicate shards, mixed profiles, commits, sides or plans) or a file is
// not a partial report.
#include <memory>

#include "perfci/app/merge_session.h"
#include "perfci/cli/commands.h"

namespace perfci::cli {

void add_merge_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<MergeFlags>();
  auto* cmd = app.add_subcommand(
      "merge", "Join the partial reports of a sharded check or A/B (--shard K/N) into one verdict");
  cmd->add_option("parts", args->parts, "The N partial reports (reports/*.shard-K-of-N.json)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "Reports folder to write (default: reports)");
  cmd->add_flag(
      "--github", args->github,
      "Print ::error annotations for GitHub Actions (on by default when GITHUB_ACTIONS=true)");
  cmd->add_flag("--quiet", args->quiet, "Do not print the Markdown report on stdout");
  cmd->callback([runner, args] { *runner = [args] { return run_merge_session(*args); }; });
}

}  // namespace perfci::cli
