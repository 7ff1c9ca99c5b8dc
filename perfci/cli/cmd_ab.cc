// perfci ab --a A --b B: an A/B of two benchmark binaries or build folders.
#include <memory>

#include "perfci/app/ab_session.h"
#include "perfci/cli/commands.h"

namespace perfci::cli {

void add_ab_command(CLI::App& app, CommandRunner* runner) {
  struct Args {
    AbFlags flags;
    std::string a, b;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("ab", "A/B of two benchmark binaries (or build folders)");
  cmd->add_option("--a", args->a, "Side A: a benchmark binary or a build folder")->required();
  cmd->add_option("--b", args->b, "Side B: a benchmark binary or a build folder")->required();
  args->flags.add_to(cmd);
  cmd->callback([runner, args] {
    *runner = [args] { return run_ab_session(args->flags, {args->a, {}}, {args->b, {}}, "ab"); };
  });
}

}  // namespace perfci::cli
