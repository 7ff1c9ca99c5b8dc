// Each perfci subcommand lives in its own cmd_<name>.cc and registers
// itself on the CLI11 app here. The returned callback runs after parsing and
// yields the process exit code (0 ok, 1 a finding such as a regression or a
// broken contract, 2 an error in the input or the environment).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace perfci::app {}

namespace perfci::cli {

// cli/ is flags only: each command fills app/'s option structs and calls one
// app/ function, so the orchestration's names are used unqualified here.
using namespace perfci::app;  // NOLINT(google-build-using-namespace)

using CommandRunner = std::function<int()>;

// "perfci 0.1.0 (report schema perfci.report/1)": `perfci version` and
// `perfci --version`.
std::string version_line();

// Sets *runner when the subcommand is selected.
void add_version_command(CLI::App& app, CommandRunner* runner);
void add_run_command(CLI::App& app, CommandRunner* runner);
void add_env_command(CLI::App& app, CommandRunner* runner);
void add_contracts_command(CLI::App& app, CommandRunner* runner);
void add_ab_command(CLI::App& app, CommandRunner* runner);
void add_aa_command(CLI::App& app, CommandRunner* runner);
void add_compare_command(CLI::App& app, CommandRunner* runner);
void add_report_command(CLI::App& app, CommandRunner* runner);
void add_check_command(CLI::App& app, CommandRunner* runner);
void add_baseline_command(CLI::App& app, CommandRunner* runner);
void add_merge_command(CLI::App& app, CommandRunner* runner);
void add_bisect_command(CLI::App& app, CommandRunner* runner);
void add_history_command(CLI::App& app, CommandRunner* runner);

}  // namespace perfci::cli
