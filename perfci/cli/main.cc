#include <cstdio>
#include <exception>

#include "perfci/cli/commands.h"
#include "perfci/version.h"

int main(int argc, char** argv) {
  CLI::App app{"perfci: performance-regression checks for CMake + Google Benchmark projects"};
  app.require_subcommand(1);
  perfci::cli::CommandRunner runner;
  perfci::cli::add_version_command(app, &runner);
  perfci::cli::add_run_command(app, &runner);
  perfci::cli::add_env_command(app, &runner);
  perfci::cli::add_contracts_command(app, &runner);
  perfci::cli::add_ab_command(app, &runner);
  perfci::cli::add_aa_command(app, &runner);
  perfci::cli::add_compare_command(app, &runner);
  perfci::cli::add_report_command(app, &runner);
  perfci::cli::add_check_command(app, &runner);
  perfci::cli::add_baseline_command(app, &runner);
  perfci::cli::add_merge_command(app, &runner);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 returns 0 for --help; any real usage error becomes exit 2.
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    return runner ? runner() : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfci: error: %s\n", e.what());
    return 2;
  }
}
