// perfci compare REV_A REV_B: builds each revision in its own git worktree
// (cached by commit) and runs the A/B of their suite binaries. WORKTREE
// names the uncommitted tree.
#include <fmt/core.h>

#include <memory>

#include "perfci/app/ab_session.h"
#include "perfci/cli/commands.h"
#include "perfci/runner/git_worktree.h"
#include "perfci/runner/revision.h"
#include "perfci/util/error.h"

namespace perfci::cli {
namespace {

struct CompareArgs {
  AbFlags flags;
  std::string rev_a, rev_b;
  std::string cache;
  std::string repo;
  int jobs = 0;
};

SideInput built_side(const RevisionBuild& build) {
  SideInput s;
  s.path = build.build_dir.string();
  s.side.revision = build.revision;
  s.side.commit = build.commit;
  s.side.dirty = build.dirty;
  s.side.build = {{"build_dir", build.build_dir.string()},
                  {"source_dir", build.source_dir.string()},
                  {"reused", build.reused},
                  {"configure", build.configure_command}};
  return s;
}

int run_compare(const CompareArgs& a) {
  // Both arguments are checked before anything is built.
  check_revision_syntax(a.rev_a);
  check_revision_syntax(a.rev_b);
  auto config = load_optional_config(a.flags);
  if (!config)
    throw Error("perfci compare needs a perfci.json (here or --config) naming the suite's binary");
  RevisionBuildOptions o;
  o.repo = a.repo.empty() ? std::filesystem::current_path() : std::filesystem::path(a.repo);
  o.cache_dir = a.cache;
  o.preset = config->build.preset;
  o.targets = config->build.targets;
  o.jobs = a.jobs;
  // Building is slow and silent otherwise; these lines are worth showing even off a TTY.
  if (!a.flags.quiet) o.progress = progress_printer("compare");
  std::filesystem::path top = git_toplevel(o.repo);
  if (a.rev_a != kWorktreeRevision) resolve_commit(top, a.rev_a);
  if (a.rev_b != kWorktreeRevision) resolve_commit(top, a.rev_b);
  RevisionBuild build_a = build_revision(a.rev_a, o);
  RevisionBuild build_b = build_revision(a.rev_b, o);
  return run_ab_session(a.flags, built_side(build_a), built_side(build_b), "compare", top);
}

}  // namespace

void add_compare_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "Build two git revisions in worktrees and A/B them");
  cmd->add_option("rev_a", args->rev_a, "Revision A (e.g. HEAD~1, main, a hash, WORKTREE)")
      ->required();
  cmd->add_option("rev_b", args->rev_b, "Revision B (e.g. HEAD, WORKTREE)")->required();
  cmd->add_option("--cache", args->cache,
                  "Worktree cache (default: <repo>/.perfci-cache/worktrees)");
  cmd->add_option("--repo", args->repo, "The git repository (default: the current folder)");
  cmd->add_option("--jobs", args->jobs, "Parallel build jobs (default: CMake's)")
      ->check(CLI::Range(0, 1024));
  args->flags.add_to(cmd);
  // A revision that looks like an option is refused by CLI11 as an unknown
  // option; after `--` it reaches check_revision_syntax, which refuses it too.
  cmd->callback([runner, args] { *runner = [args] { return run_compare(*args); }; });
}

}  // namespace perfci::cli
