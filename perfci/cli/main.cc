#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "perfci/cli/commands.h"
#include "perfci/util/interrupt.h"
#include "perfci/version.h"

namespace {

// Every message the user sees from here starts "perfci: error: ".
int usage_error(const std::string& message, const std::string& help) {
  std::fprintf(stderr, "perfci: error: %s\nRun '%s --help' for more information.\n",
               message.c_str(), help.c_str());
  return 2;
}

std::string subcommand_list(const CLI::App& app) {
  std::string out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out += (out.empty() ? "" : ", ") + sub->get_name();
  return out;
}

bool is_subcommand(const CLI::App& app, const std::string& word) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(word)) return true;
  return false;
}

// CLI11's message, prefixed with the subcommand it is about; reworded when
// the first word is no subcommand (or missing): then the list of them.
int parse_error(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first.empty())
    return usage_error("a subcommand is required: " + subcommand_list(app), "perfci");
  // --help and --version are the only options before a subcommand.
  if (first[0] == '-')
    return usage_error(
        "unknown option '" + first + "'; perfci takes a subcommand first: " + subcommand_list(app),
        "perfci");
  if (!is_subcommand(app, first))
    return usage_error(
        "unknown subcommand '" + first + "'; the subcommands are " + subcommand_list(app),
        "perfci");
  return usage_error(first + ": " + e.what(), "perfci " + first);
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything starts a child: SIGINT and SIGTERM stop the children,
  // unwind (temporary folders go) and end in an incomplete report.
  perfci::install_interrupt_handlers();
  CLI::App app{"perfci: performance-regression checks for CMake + Google Benchmark projects"};
  app.require_subcommand(1);
  app.set_version_flag("--version", perfci::cli::version_line(),
                       "Print the tool and schema versions (as perfci version does)");
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
  perfci::cli::add_bisect_command(app, &runner);
  perfci::cli::add_history_command(app, &runner);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version: CLI11 prints them and returns 0. Any real usage
    // error is exit 2.
    if (e.get_exit_code() == 0) return app.exit(e);
    return parse_error(app, e, argc, argv);
  }
  int rc = 2;
  try {
    rc = runner ? runner() : 2;
  } catch (const perfci::Interrupted& stop) {
    // Nothing measured yet (a build, a listing): no report to write.
    std::fprintf(stderr, "perfci: error: interrupted by %s; nothing was measured yet\n",
                 stop.signal_name().c_str());
    return 128 + stop.signal();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfci: error: %s\n", e.what());
    return 2;
  }
  // A signal after the last child finished (while analysing or writing):
  // the outputs are complete, but the user asked to stop.
  if (int signo = perfci::interrupt_signal(); signo != 0 && rc < 128) {
    std::fprintf(stderr, "perfci: error: interrupted by %s after the measurements were complete\n",
                 perfci::signal_name(signo).c_str());
    return 128 + signo;
  }
  return rc;
}
