#include "perfci/report/shard_render.h"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "perfci/report/format.h"
#include "perfci/report/svg_plot.h"

namespace perfci::report {
namespace {

std::string lead(const Report& r) {
  if (r.shard) {
    const auto& s = *r.shard;
    auto seconds = s.plan.shard_seconds();
    return fmt::format(
        "Partial report: shard {} measured {} of the suite's {} benchmarks (expected {:.1f} s of "
        "{:.1f} s). Its verdict covers only those; `perfci merge` joins the {} parts into the "
        "suite's verdict.",
        format_shard(s.spec), s.plan.names_of(s.spec.index).size(), s.plan.entries.size(),
        seconds[static_cast<std::size_t>(s.spec.index - 1)],
        std::accumulate(seconds.begin(), seconds.end(), 0.0), s.spec.count);
  }
  return fmt::format(
      "Merged by `perfci merge` from {} shards of one run, each measuring its part of the "
      "suite's {} benchmarks; the verdict is the whole suite's.",
      r.merged->parts.size(), r.merged->plan.entries.size());
}

const std::vector<std::string> kColumns{"shard",      "machine",    "outcome",  "gated metrics",
                                        "benchmarks", "expected s", "elapsed s"};

std::vector<std::vector<std::string>> part_rows(const Report& r) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : r.merged->parts)
    rows.push_back({fmt::format("{}/{}", p.index, r.merged->plan.count),
                    p.hostname + (p.cpu_model.empty() ? "" : " (" + p.cpu_model + ")"), p.outcome,
                    r.check ? std::to_string(p.gated_metrics) : "-",
                    std::to_string(p.benchmarks.size()), fmt::format("{:.1f}", p.expected_seconds),
                    fmt::format("{:.1f}", p.elapsed_seconds)});
  return rows;
}

}  // namespace

std::string shard_headline(const Report& r) {
  return r.shard ? " (shard " + format_shard(r.shard->spec) + ")" : "";
}

std::string shard_markdown(const Report& r) {
  if (!r.shard && !r.merged) return "";
  std::string md = lead(r) + "\n\n";
  if (!r.merged) return md;
  md += "| " + fmt::format("{}", fmt::join(kColumns, " | ")) + " |\n|";
  for (std::size_t i = 0; i < kColumns.size(); ++i) md += "---|";
  md += "\n";
  for (const auto& row : part_rows(r)) {
    md += "|";
    for (const auto& cell : row) md += " " + markdown_cell(cell) + " |";
    md += "\n";
  }
  return md + "\n";
}

std::string shard_html(const Report& r) {
  if (!r.shard && !r.merged) return "";
  std::string h = "<p>" + html_escape(lead(r)) + "</p>\n";
  if (!r.merged) return h;
  h += "<table>\n<tr>";
  for (const auto& col : kColumns) h += "<th>" + html_escape(col) + "</th>";
  h += "</tr>\n";
  for (const auto& row : part_rows(r)) {
    h += "<tr>";
    for (const auto& cell : row) h += "<td>" + html_escape(cell) + "</td>";
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace perfci::report
