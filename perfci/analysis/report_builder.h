// Turns an A/B run into its report: identifies both binaries, explains every
// regressed or improved benchmark, compares contract results and the oracle
// gap, and sums the verdicts up.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/model/ab_run.h"
#include "perfci/model/report.h"

namespace perfci::analysis {

struct ReportInputs {
  AbRun run;
  Side a;  // label, revision, commit, binary, build and contracts filled by the caller
  Side b;
  nlohmann::json machine = nlohmann::json::object();
  nlohmann::json settings = nlohmann::json::object();
  std::vector<PrefixPair> oracle_pairs;  // perfci.json's "pairs"; none: no oracle gap
};

Report build_report(ReportInputs inputs);

// Recounts the verdicts and sets the summary verdict from the benchmarks.
void summarize(Report& report);

}  // namespace perfci::analysis
