#include "perfci/runner/cmake_build.h"

#include <nlohmann/json.hpp>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace fs = std::filesystem;

SubprocessResult run_tool_step(const std::vector<std::string>& argv, const fs::path& cwd,
                               std::chrono::milliseconds timeout) {
  SubprocessOptions s;
  s.argv = argv;
  s.cwd = cwd.string();
  // A git step must never wait for a password on a terminal nobody watches.
  s.set_env = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  s.timeout = timeout;
  s.stderr_tail = 8 << 10;
  return run_subprocess(s);
}

void require_step_ok(const std::string& what, const std::vector<std::string>& argv,
                     const SubprocessResult& r) {
  if (r.ok()) return;
  std::string out = r.out.size() > 3000 ? "..." + r.out.substr(r.out.size() - 3000) : r.out;
  std::string msg = what + " failed (" + format_command(argv) + ": " + r.describe() + ")";
  if (!r.spawn_error.empty()) msg += ": " + r.spawn_error;
  if (!out.empty()) msg += "\n" + out;
  if (!r.err_tail.empty()) msg += "\n" + r.err_tail;
  throw Error(msg);
}

bool has_configure_preset(const fs::path& source, const std::string& preset) {
  if (preset.empty()) return false;
  fs::path file = source / "CMakePresets.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return false;
  try {
    auto j = nlohmann::json::parse(read_file(file));
    for (const auto& p : j.value("configurePresets", nlohmann::json::array()))
      if (p.value("name", "") == preset) return true;
  } catch (const nlohmann::json::exception&) {
    return false;  // cmake would reject it too; the plain configure still works
  }
  return false;
}

std::vector<std::string> configure_command(const fs::path& source, const fs::path& build,
                                           const std::string& preset) {
  if (has_configure_preset(source, preset))
    return {"cmake", "--preset", preset, "-B", build.string()};
  std::vector<std::string> argv{"cmake", "-S",           source.string(),
                                "-B",    build.string(), "-DCMAKE_BUILD_TYPE=Release"};
  // Ninja when there is one: faster no-op rebuilds of a cached build.
  SubprocessOptions probe;
  probe.argv = {"ninja", "--version"};
  probe.timeout = std::chrono::seconds(10);
  if (run_subprocess(probe).ok() && !fs::exists(build / "CMakeCache.txt")) {
    argv.push_back("-G");
    argv.push_back("Ninja");
  }
  return argv;
}

void configure_and_build(const fs::path& source, const fs::path& build,
                         const std::vector<std::string>& configure, const CMakeBuildOptions& o) {
  auto r = run_tool_step(configure, source, o.timeout);
  require_step_ok("configuring " + source.string(), configure, r);
  std::vector<std::string> argv{"cmake", "--build", build.string()};
  if (o.jobs > 0) argv.insert(argv.end(), {"-j", std::to_string(o.jobs)});
  for (const auto& t : o.targets) argv.insert(argv.end(), {"--target", t});
  r = run_tool_step(argv, source, o.timeout);
  require_step_ok("building " + source.string(), argv, r);
}

}  // namespace perfci
