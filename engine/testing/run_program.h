// Runs a program from an argv vector (never through a shell), with given
// stdin, and collects its stdout, stderr and exit status: how the tests run
// the real sqlite3 shell to compare engine-shell with it.
#pragma once

#include <string>
#include <vector>

namespace engine::testing {

struct ProgramOutput {
  bool started = false;  // false: the program could not be run at all
  int exit_status = -1;  // the exit code, or 128 + signal when killed
  std::string out;
  std::string err;
};

// argv[0] is a path (no PATH lookup). Blocks until the program exits.
ProgramOutput RunProgram(const std::vector<std::string>& argv, const std::string& stdin_data);

// The sqlite3 command-line shell, or "" when it is not installed.
std::string Sqlite3ShellPath();

}  // namespace engine::testing
