// What `perfci run` and `perfci env` add to the common flags for finding
// what to measure: the binary, given directly or found in a build folder
// through the suite's "binary".
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "perfci/app/common_flags.h"
#include "perfci/config/config.h"

namespace perfci::app {

struct TargetOptions {
  std::string build_dir;
  std::string binary;

  // --build-dir and --binary (each excludes the other).
  void add_to(CLI::App* cmd);
  // The benchmark binary: --binary, else the suite's binary (of --config and
  // --suite in `flags`) in --build-dir, else in build/<preset>. Throws
  // perfci::Error when it cannot be determined.
  std::string resolve_binary(const CommonFlags& flags, const std::optional<Config>& config) const;
};

}  // namespace perfci::app
