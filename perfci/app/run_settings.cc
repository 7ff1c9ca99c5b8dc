#include "perfci/app/run_settings.h"

#include <filesystem>

#include "perfci/util/error.h"

namespace perfci::app {

void TargetOptions::add_to(CLI::App* cmd) {
  auto* bd =
      cmd->add_option("--build-dir", build_dir, "Build folder; the suite's binary is found in it");
  auto* bin = cmd->add_option("--binary", binary, "Google Benchmark binary to measure");
  bd->excludes(bin);
  bin->excludes(bd);
}

std::string TargetOptions::resolve_binary(const CommonFlags& flags,
                                          const std::optional<Config>& config) const {
  if (!binary.empty()) return binary;
  const SuiteConfig* s = pick_suite(flags, config);
  if (!s)
    throw Error("nothing to measure: give --binary, or a perfci.json with a suite and --build-dir");
  std::string dir = build_dir;
  // The preset's build folder, by the convention of this tree's presets.
  if (dir.empty()) dir = "build/" + config->build.preset;
  return (std::filesystem::path(dir) / s->binary).string();
}

}  // namespace perfci::app
