#include "perfci/baseline/valgrind_view.h"

#include <array>
#include <chrono>
#include <sstream>

#include "perfci/util/subprocess.h"

namespace perfci::baseline {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Environment variables that change which implementation glibc binds or how
// the dynamic loader resolves symbols, and with them the instruction count.
bool decisive_env(const std::string& assignment) {
  static constexpr std::array<const char*, 5> kNames{
      "GLIBC_TUNABLES=", "LD_BIND_NOW=", "LD_PRELOAD=", "LD_LIBRARY_PATH=", "LD_HWCAP_MASK="};
  for (const char* n : kNames)
    if (starts_with(assignment, n)) return true;
  return false;
}

std::string unquote(std::string v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

std::map<std::string, std::string> parse_loader_diagnostics(const std::string& text) {
  std::map<std::string, std::string> facts;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    const std::string value = unquote(line.substr(eq + 1));
    if (starts_with(key, "env[")) {
      // env[0x3]="GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2": keyed by name, not slot.
      if (decisive_env(value)) {
        const auto name_end = value.find('=');
        facts["env " + value.substr(0, name_end)] = value.substr(name_end + 1);
      }
      continue;
    }
    const bool cpu =
        starts_with(key, "x86.cpu_features.") && key.find(".cpuid[") == std::string::npos;
    const bool loader = key == "dl_hwcap" || key == "dl_hwcap2" || key == "dl_hwcap_important" ||
                        key == "dl_platform" || key == "dl_hwcaps_subdirs_active" ||
                        key == "dl_string_platform";
    if (cpu || loader) facts[key] = value;
  }
  return facts;
}

ValgrindView probe_valgrind_view(const std::string& loader, const std::string& valgrind) {
  ValgrindView view;
  if (loader.empty()) {
    view.error = "the binary names no dynamic loader (statically linked)";
    return view;
  }
  SubprocessOptions o;
  o.argv = {valgrind, "--tool=none", "-q", loader, "--list-diagnostics"};
  o.timeout = std::chrono::seconds(60);
  SubprocessResult r;
  try {
    r = run_subprocess(o);
  } catch (const std::exception& e) {
    view.error = std::string("valgrind could not be started: ") + e.what();
    return view;
  }
  if (!r.ok()) {
    view.error = "valgrind --tool=none " + loader + " --list-diagnostics " + r.describe();
    return view;
  }
  view.facts = parse_loader_diagnostics(r.out);
  if (view.facts.empty())
    view.error = loader + " --list-diagnostics printed no CPU facts (glibc older than 2.33?)";
  return view;
}

}  // namespace perfci::baseline
