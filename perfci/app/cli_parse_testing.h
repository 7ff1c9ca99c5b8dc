// Test support: parses an argument list (without the program name) on a
// CLI11 app, as `perfci <command> ...` would, for the flag suites of app/.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace perfci::app::testing {

inline void parse(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<const char*> argv{"perfci"};
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace perfci::app::testing
