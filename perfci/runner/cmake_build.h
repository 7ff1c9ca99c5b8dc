// Configures and builds a CMake project the way perfci does everywhere: with
// the project's preset when CMakePresets.json has it (so the measured build
// is the one its developers use), else a plain Release configure; then
// `cmake --build` of the named targets. `perfci compare` builds revisions in
// worktrees with it, `perfci check` and `perfci baseline update` the working
// tree. Every step is an argv, never a shell line.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "perfci/util/subprocess.h"

namespace perfci {

struct CMakeBuildOptions {
  std::string preset = "release";    // used when the source has CMakePresets.json with it
  std::vector<std::string> targets;  // empty: the default target
  int jobs = 0;                      // 0: CMake's default
  std::chrono::minutes timeout{60};  // per configure or build step
};

// Runs one tool step (cmake, git) as an argv in `cwd` with LC_ALL=C and
// GIT_TERMINAL_PROMPT=0, keeping the tail of its output.
SubprocessResult run_tool_step(const std::vector<std::string>& argv,
                               const std::filesystem::path& cwd, std::chrono::milliseconds timeout);

// Throws perfci::Error "<what> failed (<command>: <how>)" with the tail of
// the step's output when `result` is not a clean exit 0.
void require_step_ok(const std::string& what, const std::vector<std::string>& argv,
                     const SubprocessResult& result);

// True when `source`/CMakePresets.json declares a configure preset `preset`.
bool has_configure_preset(const std::filesystem::path& source, const std::string& preset);

// The configure command for `source` into `build`: the preset with -B when
// there is one, else -S/-B with CMAKE_BUILD_TYPE=Release (and Ninja when
// installed and the folder is new).
std::vector<std::string> configure_command(const std::filesystem::path& source,
                                           const std::filesystem::path& build,
                                           const std::string& preset);

// Runs `configure` in `source`, then builds the targets in `build`. Throws
// perfci::Error naming the failing step, with the tail of its output.
void configure_and_build(const std::filesystem::path& source, const std::filesystem::path& build,
                         const std::vector<std::string>& configure,
                         const CMakeBuildOptions& options);

}  // namespace perfci
