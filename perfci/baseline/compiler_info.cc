#include "perfci/baseline/compiler_info.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace perfci::baseline {
namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool looks_like_version(const std::string& w) {
  static const std::regex version(R"(^\d+(\.\d+)+$)");
  return std::regex_match(w, version);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

CompilerInfo parse_producer(const std::string& producer) {
  CompilerInfo info;
  std::vector<std::string> w = words(producer);
  if (w.empty()) return info;
  bool clang = producer.find("clang version") != std::string::npos;
  info.name = w[0] == "GNU" ? "gcc" : clang ? "clang" : w[0];
  std::string flags;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (info.version.empty() && looks_like_version(w[i])) {
      info.version = w[i];
      continue;
    }
    // Only what follows the version is an option list (gcc); clang's
    // trailing "(https://... hash)" is not one.
    if (!info.version.empty() && w[i].size() > 1 && w[i][0] == '-')
      flags += (flags.empty() ? "" : " ") + w[i];
  }
  info.flags = flags;
  return info;
}

std::string major_version(const std::string& version) {
  return version.substr(0, version.find('.'));
}

CMakeBuildSettings read_cmake_build_settings(const std::filesystem::path& build_dir) {
  CMakeBuildSettings s;
  std::ifstream in(build_dir / "CMakeCache.txt");
  if (!in) return s;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line[0] == '/') continue;
    auto colon = line.find(':');
    auto eq = line.find('=');
    if (colon == std::string::npos || eq == std::string::npos || colon > eq) continue;
    const std::string key = line.substr(0, colon);
    if (key == "CMAKE_BUILD_TYPE") s.build_type = line.substr(eq + 1);
    if (key == "CMAKE_HOME_DIRECTORY") s.source_dir = line.substr(eq + 1);
  }
  return s;
}

std::string build_kind(const std::string& cmake_build_type, const std::string& flags) {
  std::string kind = lower(cmake_build_type);
  std::vector<std::string> f = words(flags);
  if (kind.empty()) {
    std::string level = "-O0";
    for (const auto& w : f)
      if (w.rfind("-O", 0) == 0) level = w;
    kind = level == "-O0" ? "debug" : "release";
  }
  for (const auto& w : f)
    if (w.rfind("-fsanitize=", 0) == 0) return kind + "-sanitize";
  return kind;
}

}  // namespace perfci::baseline
