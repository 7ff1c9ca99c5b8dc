// `perfci merge` of a sharded A/B (`perfci ab|aa|compare --shard K/N`):
// each part measured its benchmarks in pairs of its own, so the merged
// report is the A/B one run with those pairs would report. Every metric's
// comparison is computed again (the same seeds: the same intervals), and
// the p-values are adjusted together over the whole suite (Benjamini–
// Hochberg), as one run adjusts them, not per part. A part confirmed its
// own suspects with fresh pairs; a metric that is a suspect only under the
// merged family had no confirmation and is reported noisy with that
// reason, never claimed. One that is no longer a suspect takes its first
// verdict.
//
// The parts must be one run (analysis/shard_parts.h) of the same two sides.
#pragma once

#include <vector>

#include "perfci/analysis/shard_parts.h"
#include "perfci/model/report.h"

namespace perfci::analysis {

Report merge_ab_parts(std::vector<ReportPart> parts);

}  // namespace perfci::analysis
