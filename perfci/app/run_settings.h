// The options `perfci run` and `perfci env` share for finding what to
// measure: the config file, the suite, and the binary (given directly or
// found in a build folder through the suite's "binary").
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "perfci/config/config.h"

namespace perfci::app {

struct TargetOptions {
  std::string config_path;  // empty: ./perfci.json when it exists
  std::string suite;
  std::string build_dir;
  std::string binary;

  void add_to(CLI::App* cmd);
  // Loads the config (or nullopt when none is given and ./perfci.json is
  // absent). Throws perfci::Error for a bad file.
  std::optional<Config> load() const;
  // The suite to use: --suite, or the only one. nullptr without a config.
  const SuiteConfig* pick_suite(const std::optional<Config>& config) const;
  // The benchmark binary. Throws perfci::Error when it cannot be determined.
  std::string resolve_binary(const std::optional<Config>& config) const;
};

}  // namespace perfci::app
