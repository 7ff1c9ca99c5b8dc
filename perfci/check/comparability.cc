#include "perfci/check/comparability.h"

#include <algorithm>

namespace perfci::check {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s + "]";
}

std::string shown(const std::string& s) { return s.empty() ? "(none)" : s; }

}  // namespace

std::vector<std::string> settings_mismatches(const baseline::SuiteSettings& b,
                                             const baseline::SuiteSettings& c) {
  std::vector<std::string> out;
  if (b.suite != c.suite)
    out.push_back("suite: the baseline is of '" + b.suite + "', this run of '" + c.suite + "'");
  if (b.args != c.args)
    out.push_back("args: the baseline ran the binary with " + join(b.args) +
                  ", perfci.json now says " + join(c.args));
  bool callgrind = std::find(c.meters.begin(), c.meters.end(), "callgrind") != c.meters.end();
  if (callgrind && b.callgrind_iterations != c.callgrind_iterations)
    out.push_back("callgrind iterations: the baseline counted " +
                  std::to_string(b.callgrind_iterations) + " per benchmark, perfci.json now says " +
                  std::to_string(c.callgrind_iterations) +
                  " (the count per iteration depends on it)");
  return out;
}

namespace {

std::string mode_words(const std::string& mode) {
  return mode == "process" ? "hook-free (whole process)" : "by the hook (timed region)";
}

// The counters' mode; empty when none has a value.
std::string counters_mode(const BenchmarkResult& b) {
  for (const auto& c : b.counters)
    if (c.per_iteration) return c.mode;
  return "";
}

}  // namespace

std::vector<ModeMismatch> mode_mismatches(const BenchmarkResult& b, const BenchmarkResult& c) {
  std::vector<ModeMismatch> out;
  if (b.callgrind && c.callgrind && b.callgrind->mode != c.callgrind->mode)
    out.push_back({"callgrind", "callgrind counted it " + mode_words(b.callgrind->mode) +
                                    " in the baseline and " + mode_words(c.callgrind->mode) +
                                    " here"});
  const std::string bm = counters_mode(b), cm = counters_mode(c);
  if (!bm.empty() && !cm.empty() && bm != cm)
    out.push_back({"counters", "its counters were opened " + mode_words(bm) +
                                   " in the baseline and " + mode_words(cm) + " here"});
  return out;
}

std::string describe_differences(const std::vector<baseline::ProfileDifference>& d,
                                 std::size_t at_most) {
  std::string s;
  for (std::size_t i = 0; i < d.size() && i < at_most; ++i)
    s += (i ? ", " : "") + d[i].fact + " " + shown(d[i].baseline) + " -> " + shown(d[i].current);
  if (d.size() > at_most) s += ", and " + std::to_string(d.size() - at_most) + " more";
  return s;
}

std::vector<perfci::CheckGate> decide_gates(const baseline::ProfileComparison& p,
                                            const std::vector<std::string>& information_only) {
  std::vector<perfci::CheckGate> out;
  for (const char* kind : {"callgrind", "wall", "counters"}) {
    perfci::CheckGate g{kind, stats::Gate::kGated, "", ""};
    bool machine_bound = std::string(kind) != "callgrind";
    if (std::find(information_only.begin(), information_only.end(), kind) !=
        information_only.end()) {
      g.gate = stats::Gate::kInformation;
      g.reason = "perfci.json lists it in check.information_only";
    } else if (!p.toolchain_matches()) {
      g.gate = stats::Gate::kInformation;
      g.reason = "the toolchain differs from the baseline's: " + describe_differences(p.toolchain);
    } else if (machine_bound && !p.machine_matches()) {
      g.gate = stats::Gate::kInformation;
      g.reason = "another machine than the baseline's: " + describe_differences(p.machine);
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace perfci::check
