// perfci aa BINARY: an A/A run (the same binary on both sides) that
// measures the machine's noise per benchmark.
#include <memory>

#include "perfci/app/ab_session.h"
#include "perfci/cli/commands.h"

namespace perfci::cli {

void add_aa_command(CLI::App& app, CommandRunner* runner) {
  struct Args {
    AbFlags flags;
    std::string target;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("aa", "A/A run of one binary: the machine's noise per benchmark");
  cmd->add_option("target", args->target, "A benchmark binary or a build folder")->required();
  args->flags.add_to(cmd);
  cmd->callback([runner, args] {
    *runner = [args] {
      return run_ab_session(args->flags, {args->target, {}}, {args->target, {}}, "aa");
    };
  });
}

}  // namespace perfci::cli
