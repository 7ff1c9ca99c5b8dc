#include "perfci/app/merge_session.h"

#include <fmt/format.h>

#include <filesystem>

#include "perfci/analysis/ab_shard_merge.h"
#include "perfci/app/report_folder.h"
#include "perfci/check/shard_merge.h"

namespace perfci::app {

namespace fs = std::filesystem;

int run_merge_session(const MergeFlags& a) {
  std::vector<analysis::ReportPart> parts;
  for (const auto& file : a.parts) parts.push_back({file, load_report(file)});
  const bool check = parts.front().report.mode == "check";
  Report rep = check ? check::merge_check_parts(std::move(parts))
                     : analysis::merge_ab_parts(std::move(parts));

  const std::string stem = commit_stem(rep.b.commit, rep.b.dirty);
  const std::string md = write_report_folder(rep, fs::absolute(a.out), stem, "latest");
  const std::string where =
      fmt::format("from {} shards; reports in {}/{{{}.json, latest.json, latest.md, latest.html}}",
                  rep.merged->parts.size(), fs::absolute(a.out).string(), stem);
  if (check) return print_check_outcome(rep, "merge", md, a.quiet, a.github, where);
  if (!a.quiet) fmt::print("{}", md);
  fmt::print(stderr, "perfci merge: {} (exit {}) {}\n", stats::to_string(rep.verdict),
             rep.exit_code(), where);
  return rep.exit_code();
}

}  // namespace perfci::app
