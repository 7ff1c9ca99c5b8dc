#include "perfci/report/bisect_render.h"

#include <fmt/format.h>

#include "perfci/model/number_format.h"
#include "perfci/report/format.h"
#include "perfci/runner/revision.h"

namespace perfci::report {
namespace {

std::string value_text(const BisectReport& r, const std::optional<double>& v) {
  return v ? format_value(r.metric, *v) : "";
}

}  // namespace

std::string render_bisect_markdown(const BisectReport& r) {
  std::string md = fmt::format("## perfci bisect: **{}**\n\n", r.outcome);
  md += r.summary + "\n\n";
  if (r.incomplete)
    md += fmt::format("**incomplete:** {} (exit {}); what follows is what was measured.\n\n",
                      r.incomplete->reason(), r.incomplete->exit_code());
  md += fmt::format(
      "Benchmark `{}`, {} {}, threshold {} ({}); GOOD `{}` ({}) .. BAD `{}` ({}): {} commits "
      "after GOOD, {} builds (at most {} without skips), {} of them fresh.\n\n",
      r.benchmark, r.kind, r.metric, format_threshold(r.threshold), r.threshold_source,
      short_hash(r.good_commit), r.good_revision, short_hash(r.bad_commit), r.bad_revision,
      r.candidates, r.builds, r.max_builds, r.fresh_builds);

  if (r.first_bad) {
    const BisectCulprit& c = *r.first_bad;
    md += fmt::format("### First bad commit: `{}` {}\n\n", short_hash(c.commit),
                      markdown_cell(c.subject));
    if (c.merge)
      md +=
          "It is a merge: the regression came in through the branch it merged (bisected along "
          "first-parent history).\n\n";
    md += fmt::format("- {} {}: {} at its parent `{}` ({}), {} at `{}`: ratio {} ({}); {}\n",
                      r.kind, r.metric, format_value(r.metric, c.value_parent),
                      short_hash(c.parent), markdown_cell(c.parent_subject),
                      format_value(r.metric, c.value), short_hash(c.commit), format_ratio(c.ratio),
                      format_change_precise(c.ratio - 1), c.method);
    if (c.explanation) {
      for (const auto& note : c.explanation->notes) md += "- " + note + "\n";
      md += "\n" + markdown_symbol_table(*c.explanation, "parent", "first bad");
    } else if (!c.explanation_error.empty()) {
      md += "- no explanation: " + c.explanation_error + "\n";
    }
    md += "\n";
  }
  if (!r.range.empty()) {
    md += "### The first bad commit is one of\n\n";
    for (const auto& c : r.range) md += "- `" + c + "`\n";
    if (r.range_may_be_none) md += "- or none: no commit of this range was measured bad\n";
    md += "\n";
  }

  md += "### Commits\n\n| # | commit | subject | status | " + r.kind + " " + r.metric +
        " | vs GOOD | probe | note |\n|---:|---|---|---|---:|---:|---:|---|\n";
  for (const auto& c : r.commits)
    md += fmt::format("| {} | `{}` | {} | {} | {} | {} | {} | {} |\n", c.position,
                      short_hash(c.commit), markdown_cell(c.subject), c.status,
                      value_text(r, c.value), c.change ? format_change_precise(*c.change) : "",
                      c.probe ? std::to_string(c.probe) : "", markdown_cell(c.reason));
  return md;
}

}  // namespace perfci::report
