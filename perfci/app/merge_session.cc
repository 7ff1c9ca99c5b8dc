#include "perfci/app/merge_session.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include "perfci/analysis/ab_shard_merge.h"
#include "perfci/check/shard_merge.h"
#include "perfci/report/check_render.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::app {

namespace fs = std::filesystem;

int run_merge_session(const MergeFlags& a) {
  std::vector<analysis::ReportPart> parts;
  for (const auto& file : a.parts) parts.push_back({file, load_report(file)});
  const bool check = parts.front().report.mode == "check";
  Report rep = check ? check::merge_check_parts(std::move(parts))
                     : analysis::merge_ab_parts(std::move(parts));

  fs::path out = fs::absolute(a.out);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw Error(out.string() + ": cannot create the reports folder: " + ec.message());
  const std::string stem =
      rep.b.commit.empty() ? "no-commit" : rep.b.commit + (rep.b.dirty ? "-dirty" : "");
  const std::string md = report::render_markdown(rep);
  save_report(rep, (out / (stem + ".json")).string());
  save_report(rep, (out / "latest.json").string());
  write_file_atomic(out / "latest.md", md);
  write_file_atomic(out / "latest.html", report::render_html(rep));

  if (!a.quiet) fmt::print("{}", md);
  if (!check) {
    fmt::print(stderr,
               "perfci merge: {} (exit {}) from {} shards; reports in {}/{{{}.json, "
               "latest.json, latest.md, latest.html}}\n",
               stats::to_string(rep.verdict), rep.exit_code(), rep.merged->parts.size(),
               out.string(), stem);
    return rep.exit_code();
  }
  const char* env = std::getenv("GITHUB_ACTIONS");
  if (a.github || (env && std::string(env) == "true"))
    fmt::print("{}", report::github_annotations(rep));
  const CheckSection& c = *rep.check;
  for (const auto& e : c.errors) fmt::print(stderr, "perfci merge: error: {}\n", e);
  for (const auto& f : c.findings) fmt::print(stderr, "perfci merge: FAIL: {}\n", f);
  if (!c.not_gated_reason.empty())
    fmt::print(stderr, "perfci merge: NOT GATED: {}\n", c.not_gated_reason);
  fmt::print(stderr,
             "perfci merge: {} (exit {}, {} gated metric(s)) from {} shards; reports in "
             "{}/{{{}.json, latest.json, latest.md, latest.html}}\n",
             report::check_outcome(rep), rep.exit_code(), c.gated_metrics, rep.merged->parts.size(),
             out.string(), stem);
  return rep.exit_code();
}

}  // namespace perfci::app
