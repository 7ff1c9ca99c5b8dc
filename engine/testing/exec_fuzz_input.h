// One input of the planner/executor fuzz target (engine/api/sql_exec_fuzz.cc),
// shared with the regression test that replays the inputs it once crashed on
// (tests/fuzz_regression_test.cc), so that both run exactly the same thing.
//
// An input is an SQL script. It runs on a fresh copy of one small database
// (so that a failure reproduces from the input alone) through Prepare / Step,
// with bounds on statements, rows, row sources and file growth; afterwards
// the real SQLite must find the file sound (PRAGMA integrity_check).
#pragma once

#include <string>
#include <string_view>

namespace engine::testing {

class ExecFuzzInput {
 public:
  // Builds the template database in /dev/shm (else the temp directory).
  ExecFuzzInput();
  ~ExecFuzzInput();
  ExecFuzzInput(const ExecFuzzInput&) = delete;
  ExecFuzzInput& operator=(const ExecFuzzInput&) = delete;

  // False for inputs whose cost the bounds cannot cap (too long, too many
  // row sources for nested loops, huge sizes for allocating functions).
  static bool Accept(std::string_view sql);

  // Runs the script; "" when every invariant held, else what broke.
  std::string Run(std::string_view sql);

 private:
  void Reset() const;

  std::string db_;
  std::string journal_;
  std::string template_bytes_;
};

}  // namespace engine::testing
