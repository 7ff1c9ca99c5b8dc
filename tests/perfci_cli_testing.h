// What the end-to-end tests of the perfci command share: running it (never
// through a shell, never in the caller's folder), saying what a run did when
// an assertion fails, and reading its JSON reports. PERFCI_BINARY is the
// path CMake passes.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci::testing {

// perfci with `args` in `cwd`: by default an empty folder of its own, since
// a perfci.json in the caller's folder (or the shared /tmp) would change
// the suite.
inline SubprocessResult perfci_cli(std::vector<std::string> args,
                                   const std::filesystem::path& cwd = {}) {
  SubprocessOptions o;
  o.argv = {PERFCI_BINARY};
  for (auto& a : args) o.argv.push_back(std::move(a));
  TempDir scratch("perfci-cwd");
  o.cwd = cwd.empty() ? scratch.path().string() : cwd.string();
  o.timeout = std::chrono::minutes(10);
  return run_subprocess(o);
}

// How a run ended and everything it printed, for a failed assertion.
// Whether `text` (a report, a log) holds `what`.
inline bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

inline std::string explain(const SubprocessResult& r) {
  return r.describe() + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err_tail;
}

inline nlohmann::json load(const std::filesystem::path& p) {
  return nlohmann::json::parse(read_file(p));
}

// The report's benchmark `name`; a test failure (and null) when absent.
inline const nlohmann::json& bench(const nlohmann::json& report, const std::string& name) {
  for (const auto& b : report["benchmarks"])
    if (b["name"] == name) return b;
  static const nlohmann::json none;
  ADD_FAILURE() << "no benchmark " << name;
  return none;
}

}  // namespace perfci::testing
