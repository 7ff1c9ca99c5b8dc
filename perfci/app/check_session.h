// What `perfci check` and `perfci baseline update` share: the project's
// perfci.json and suite, the build of its targets, the profile of the built
// binary, where its baseline is, and one measured run of the suite with its
// contracts.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "perfci/app/common_flags.h"
#include "perfci/baseline/baseline.h"
#include "perfci/baseline/profile.h"
#include "perfci/check/check_config.h"
#include "perfci/config/config.h"
#include "perfci/meters/measure.h"
#include "perfci/model/results.h"

namespace perfci::app {

// The common flags check and baseline update take (--config, --suite,
// --meter, --timeout, --quiet: the rest is the suite's, so that a run stays
// comparable with its baseline) and their own.
struct SuiteFlags : CommonFlags {
  std::string baseline;   // a baseline file, or a folder of them; empty: perfci.json's
  std::string preset;     // CMake preset; empty: perfci.json's build.preset
  std::string build_dir;  // empty: build/<preset> beside perfci.json
  bool no_build = false;
  int jobs = 0;

  void add_to(CLI::App* cmd);
};

struct PreparedSuite {
  Config config;
  std::string preset;          // the one the build folder is (to be) built with
  std::filesystem::path root;  // the folder of perfci.json
  SuiteConfig suite;
  check::CheckConfig check;
  std::filesystem::path build_dir;
  std::string binary;
  baseline::Profile profile;
  baseline::SuiteSettings settings;
  // measure_options of the suite and the flags (no progress callback).
  MeasureOptions measure;
  std::string commit;  // HEAD; empty outside git
  bool dirty = false;
  std::filesystem::path baseline_file;  // where this suite's baseline is, or goes
};

// Loads perfci.json, builds the targets (unless --no-build), reads the built
// binary's profile and finds the baseline's path. Throws perfci::Error.
PreparedSuite prepare_suite(const SuiteFlags& flags, const char* command);

struct MeasuredSuite {
  RunResults results;
  std::optional<contracts::ContractReport> contracts;  // none when perfci.json declares none
  double elapsed_seconds = 0;
};

MeasuredSuite measure_suite(const PreparedSuite& suite, const SuiteFlags& flags,
                            const char* command);

// How the suite is measured: `measure` with the progress lines.
MeasureOptions suite_measure_options(const PreparedSuite& suite, const SuiteFlags& flags,
                                     const char* command);

// How the running perfci is typed from the current folder
// ("build/release/perfci/cli/perfci"), for commands suggested in messages.
std::string self_command();

// The exact command that creates the missing baseline of this suite.
std::string baseline_update_command(const PreparedSuite& suite, const SuiteFlags& flags,
                                    const std::string& reason);

// "perfci <command>: <text>" on stderr unless quiet.
void say(const SuiteFlags& flags, const char* command, const std::string& text);

}  // namespace perfci::app
