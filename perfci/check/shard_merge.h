// `perfci merge`: the partial reports of one sharded `perfci check`
// (`--shard K/N` on N CI jobs) joined into the report of the whole suite,
// with one verdict. A check judges every benchmark against the baseline by
// threshold alone, independently of the others, so the merged benchmarks,
// gaps and verdicts are the ones one unsharded check would give; only the
// summary, the gated-metric count and the outcome are recomputed, by the
// same rules (stats::decide_check).
//
// The parts must be one run: the same N and plan, every index once, the same
// commit, suite, profile, baseline and settings. Anything else is refused
// (perfci::Error, exit 2), never joined into a verdict that no run made.
#pragma once

#include <string>
#include <vector>

#include "perfci/model/report.h"

namespace perfci::check {

struct ReportPart {
  std::string file;  // where it was read from, for messages and the merged record
  Report report;
};

Report merge_check_parts(std::vector<ReportPart> parts);

}  // namespace perfci::check
