// `perfci merge` of a sharded `perfci check` (`--shard K/N` on N CI jobs):
// the parts joined into the report of the whole suite, with one verdict. A
// check judges every benchmark against the baseline by threshold alone,
// independently of the others, so the merged benchmarks and verdicts are
// the ones one unsharded check would give; the oracle gaps (whose two
// benchmarks may have run in different parts), the summary, the gated-metric
// count and the outcome are computed again over the whole suite, by the same
// rules (check/oracle_gap_gate.h, stats::decide_check).
//
// The parts must be one run (analysis/shard_parts.h) and also share the
// commit, suite, profile and baseline; anything else is refused.
#pragma once

#include <vector>

#include "perfci/analysis/shard_parts.h"
#include "perfci/model/report.h"

namespace perfci::check {

using analysis::ReportPart;

Report merge_check_parts(std::vector<ReportPart> parts);

}  // namespace perfci::check
