// What `perfci ab`, `perfci aa` and `perfci compare` share once they know
// their two binaries: the options of the A/B, the run itself, the contract
// checks of both sides, the report and its files, and the exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "perfci/model/report.h"

namespace perfci::app {

struct AbFlags {
  std::string config_path;  // empty: ./perfci.json when it exists
  std::string suite;
  std::string filter;
  std::string meters;  // comma list; empty: perfci.json's, else wall
  int pairs = 10;
  std::string budget;  // "10m", "90s", "1h30m"; replaces --pairs
  int warmup = 1;
  std::optional<int> confirm_pairs;  // default: --pairs (at most 30)
  std::uint64_t seed = 1;
  std::optional<int> pin;
  std::string timeout = "10m";  // per trial process
  std::optional<double> min_time;
  std::optional<int> callgrind_iterations;
  std::string profile_source = "callgrind";
  std::string out;   // report JSON
  std::string md;    // Markdown rendering
  std::string html;  // HTML rendering
  bool no_contracts = false;
  bool quiet = false;

  void add_to(CLI::App* cmd);
};

// A side as the user gave it: a binary or a build folder, plus what is known
// about its revision and build.
struct SideInput {
  std::string path;
  perfci::Side side;  // revision, commit, dirty, build filled when known
};

// Runs the A/B and writes the outputs. Returns the exit code: 0 no
// regression, 1 a regression, 2 a failed benchmark. Throws perfci::Error on
// bad input (main turns it into exit 2).
int run_ab_session(const AbFlags& flags, SideInput a, SideInput b, const char* command);

// "10m", "90s", "1h", "1h30m", "45" (seconds). Throws perfci::Error.
std::chrono::seconds parse_duration(const std::string& text, const std::string& what);

// Progress lines on stderr: only to a terminal, and never with --quiet.
bool show_progress(bool quiet);

}  // namespace perfci::app
