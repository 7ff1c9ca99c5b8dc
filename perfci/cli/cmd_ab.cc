// perfci ab --a A --b B: an A/B of two benchmark binaries or build folders;
// perfci ab --a-json A.json --b-json B.json: the unpaired A/B of two Google
// Benchmark JSON files measured apart (app/gbench_ab.h).
#include <memory>
#include <string>
#include <vector>

#include "perfci/app/ab_session.h"
#include "perfci/app/gbench_ab.h"
#include "perfci/cli/commands.h"
#include "perfci/util/error.h"

namespace perfci::cli {

void add_ab_command(CLI::App& app, CommandRunner* runner) {
  struct Args {
    AbFlags flags;
    std::string a, b;
    std::string a_json, b_json;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "ab", "A/B of two benchmark binaries (or build folders), or of two Google Benchmark files");
  auto* a = cmd->add_option("--a", args->a, "Side A: a benchmark binary or a build folder");
  auto* b = cmd->add_option("--b", args->b, "Side B: a benchmark binary or a build folder");
  auto* aj = cmd->add_option("--a-json", args->a_json,
                             "Side A: a Google Benchmark JSON file (--benchmark_out); compared "
                             "unpaired with --b-json, each repetition a sample");
  auto* bj = cmd->add_option("--b-json", args->b_json, "Side B: a Google Benchmark JSON file");
  for (auto* json_side : {aj, bj}) {
    json_side->excludes(a);
    json_side->excludes(b);
  }
  args->flags.add_to(cmd);
  auto* ut = cmd->add_option(
      "--unpaired-threshold", args->flags.unpaired_threshold,
      "With --a-json/--b-json: the least change claimed, its whole interval beyond it (default "
      "0.05): two processes differ by their memory layout and machine state, which repetitions "
      "within one file cannot measure");
  ut->check(CLI::Range(0.0, 1.0));
  cmd->callback([runner, args, cmd, ut] {
    // What measures or schedules trials means nothing for files already
    // measured: refused rather than silently ignored.
    std::vector<std::string> measuring;
    for (const char* name : {"--pairs", "--budget", "--warmup", "--confirm-pairs", "--meter",
                             "--filter", "--min-time", "--callgrind-iterations", "--pin",
                             "--timeout", "--profile-source", "--no-contracts", "--shard"})
      if (cmd->get_option_no_throw(name) && cmd->count(name) > 0) measuring.push_back(name);
    const bool unpaired_flag = ut->count() > 0;
    *runner = [args, measuring, unpaired_flag] {
      const bool files = !args->a_json.empty() || !args->b_json.empty();
      if (files) {
        if (args->a_json.empty() || args->b_json.empty())
          throw Error("ab: --a-json and --b-json go together (two Google Benchmark files)");
        if (!measuring.empty())
          throw Error("ab: " + measuring.front() +
                      " does not apply to --a-json/--b-json: the files are measured already");
        return run_gbench_ab_session(args->flags, args->a_json, args->b_json, "ab");
      }
      if (unpaired_flag)
        throw Error(
            "ab: --unpaired-threshold applies to --a-json/--b-json only: paired trials "
            "(--a/--b) measure the machine's noise themselves");
      if (args->a.empty() || args->b.empty())
        throw Error(
            "ab: give --a and --b (binaries or build folders), or --a-json and --b-json "
            "(Google Benchmark files)");
      return run_ab_session(args->flags, {args->a, {}}, {args->b, {}}, "ab");
    };
  });
}

}  // namespace perfci::cli
