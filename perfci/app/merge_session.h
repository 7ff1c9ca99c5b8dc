// `perfci merge PART.json...`: the partial reports of one sharded run
// (`check`, `ab`, `aa` or `compare` with --shard K/N on N CI jobs) read,
// joined (check/shard_merge.h for a check, analysis/ab_shard_merge.h for an
// A/B) and written as <out>/<commit>.json and <out>/latest.{json,md,html},
// as check writes them.
#pragma once

#include <string>
#include <vector>

namespace perfci::app {

struct MergeFlags {
  std::vector<std::string> parts;
  std::string out = "reports";
  bool github = false;  // ::error annotations (also with GITHUB_ACTIONS=true)
  bool quiet = false;   // no Markdown on stdout
};

// The merged report's exit code (check: 0 pass, 1 fail, 2 error, 3 not
// gated; an A/B: 0, 1 a regression, 2 a failed benchmark). Throws
// perfci::Error (exit 2) when the parts are not one run or a file is not a
// partial report.
int run_merge_session(const MergeFlags& flags);

}  // namespace perfci::app
