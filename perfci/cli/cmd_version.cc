#include <fmt/core.h>

#include "perfci/cli/commands.h"
#include "perfci/version.h"

namespace perfci::cli {

std::string version_line() {
  return fmt::format("perfci {} (report schema {})", kToolVersion, kReportSchema);
}

void add_version_command(CLI::App& app, CommandRunner* runner) {
  auto* cmd = app.add_subcommand("version", "Print the tool and schema versions");
  cmd->callback([runner] {
    *runner = [] {
      fmt::print("{}\n", version_line());
      return 0;
    };
  });
}

}  // namespace perfci::cli
