// perfci bisect GOOD BAD --benchmark B: the first commit of GOOD..BAD
// (first-parent history) that made B slower than GOOD beyond the metric's
// threshold, built in compare's cached worktrees and explained against its
// parent. Exit 0 found, 1 none regressed, 2 an error, 3 only a range
// (skipped commits or an undecided wall step).
#include <memory>

#include "perfci/app/bisect_session.h"
#include "perfci/cli/commands.h"

namespace perfci::cli {

void add_bisect_command(CLI::App& app, CommandRunner* runner) {
  auto f = std::make_shared<BisectFlags>();
  auto* cmd = app.add_subcommand(
      "bisect", "Find the commit of GOOD..BAD that made a benchmark slower, and say why");
  cmd->add_option("good", f->good, "A revision where the benchmark is fast (e.g. v1.2, HEAD~20)")
      ->required();
  cmd->add_option("bad", f->bad, "A later revision where it is slow (e.g. HEAD)")->required();
  cmd->add_option("--benchmark", f->benchmark, "The benchmark to bisect (its exact name)")
      ->required();
  cmd->add_option("--metric", f->metric,
                  "callgrind/ir, wall/real_time_ns or wall/cpu_time_ns (default: callgrind/ir "
                  "when perfci.json's meters have callgrind, else wall/real_time_ns)");
  cmd->add_option("--threshold", f->threshold,
                  "A commit is bad when slower than GOOD by more than this (0.03 is 3%; "
                  "default: perfci.json's threshold of the metric)");
  cmd->add_option("--pairs", f->pairs, "Wall time: pairs of each step's A/B against GOOD")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--seed", f->seed, "Seed of the pair order and the bootstrap");
  cmd->add_option("--out", f->out,
                  "Write the JSON report here, and its Markdown beside it (.md) (default: "
                  "perfci.json's check.reports folder, bisect-GOOD-BAD-BENCHMARK.json)");
  cmd->add_option("--cache", f->cache,
                  "Worktree cache (default: <repo>/.perfci-cache/worktrees, as compare's)");
  cmd->add_option("--repo", f->repo, "The git repository (default: the current folder)");
  cmd->add_option("--jobs", f->jobs, "Parallel build jobs (default: CMake's)")
      ->check(CLI::Range(0, 1024));
  add_common_flags(cmd, *f, kBisectFlags);
  cmd->callback([runner, f] { *runner = [f] { return run_bisect_session(*f); }; });
}

}  // namespace perfci::cli
