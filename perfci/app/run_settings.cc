#include "perfci/app/run_settings.h"

#include <filesystem>

#include "perfci/util/error.h"

namespace perfci::app {

void TargetOptions::add_to(CLI::App* cmd) {
  cmd->add_option("--config", config_path, "perfci.json (default: ./perfci.json if present)");
  cmd->add_option("--suite", suite, "Suite of perfci.json to run (default: the only one)");
  auto* bd = cmd->add_option("--build-dir", build_dir,
                             "Build folder; the suite's binary is found in it");
  auto* bin = cmd->add_option("--binary", binary, "Google Benchmark binary to measure");
  bd->excludes(bin);
  bin->excludes(bd);
}

std::optional<Config> TargetOptions::load() const {
  if (!config_path.empty()) return load_config(config_path);
  if (std::filesystem::exists("perfci.json")) return load_config("perfci.json");
  return std::nullopt;
}

const SuiteConfig* TargetOptions::pick_suite(const std::optional<Config>& config) const {
  if (!config) {
    if (!suite.empty()) throw Error("--suite needs a perfci.json (none given, none in this folder)");
    return nullptr;
  }
  return &config->suite(suite);
}

std::string TargetOptions::resolve_binary(const std::optional<Config>& config) const {
  if (!binary.empty()) return binary;
  const SuiteConfig* s = pick_suite(config);
  if (!s) throw Error("nothing to measure: give --binary, or a perfci.json with a suite and --build-dir");
  std::string dir = build_dir;
  // The preset's build folder, by the convention of this tree's presets.
  if (dir.empty()) dir = "build/" + config->build.preset;
  return (std::filesystem::path(dir) / s->binary).string();
}

}  // namespace perfci::app
