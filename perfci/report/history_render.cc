#include "perfci/report/history_render.h"

#include <fmt/format.h>

#include <algorithm>

#include "perfci/model/number_format.h"
#include "perfci/report/format.h"  // markdown_cell
#include "perfci/report/html_page.h"
#include "perfci/report/svg_plot.h"  // html_escape
#include "perfci/report/trend_chart.h"
#include "perfci/runner/revision.h"

namespace perfci::report {
namespace {

// At most `n` bytes of a subject, never cutting a UTF-8 character in two.
std::string clip(const std::string& text, std::size_t n) {
  if (text.size() <= n) return text;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

// Deterministic counts in full: a 0.1% step must be readable in them.
std::string value_text(const history::Series& s, double v) {
  return s.deterministic ? fmt::format("{:.0f}", v) : format_value(s.key.metric, v);
}

std::string interval_text(const history::SeriesEntry& e, const std::string& metric) {
  if (!e.lo || !e.hi) return "-";
  return "[" + format_value(metric, *e.lo) + ", " + format_value(metric, *e.hi) + "]";
}

std::string marks(const history::SeriesEntry& e) {
  std::string m;
  if (e.baseline) m += "baseline ";
  if (e.accepted) m += "accepted ";
  return m.empty() ? "" : m.substr(0, m.size() - 1);
}

// "+3.1% [+2.4%, +3.9%]"
std::string magnitude_text(const stats::ChangePoint& p) {
  if (p.lo == p.hi) return format_change_precise(p.magnitude);
  return fmt::format("{} [{}, {}]", format_change_precise(p.magnitude), format_change_precise(p.lo),
                     format_change_precise(p.hi));
}

std::string range_text(const history::SeriesChange& c) {
  if (c.commits <= 1) return short_hash(c.to_commit);
  return fmt::format("{}..{} ({} commits)", short_hash(c.from_commit), short_hash(c.to_commit),
                     c.commits);
}

std::string evidence_text(const history::SeriesChange& c) {
  if (!c.point.p_value) return "exact step (deterministic metric)";
  return fmt::format("e-divisive, p = {:.3f}", *c.point.p_value);
}

struct ChangeRef {
  const history::Series* series;
  const history::SeriesChange* change;
};

std::vector<ChangeRef> newest_first(const std::vector<history::Series>& series) {
  std::vector<ChangeRef> all;
  for (const auto& s : series)
    for (const auto& c : s.changes) all.push_back({&s, &c});
  std::stable_sort(all.begin(), all.end(), [](const ChangeRef& a, const ChangeRef& b) {
    return a.series->entries.at(a.change->point.index).position >
           b.series->entries.at(b.change->point.index).position;
  });
  return all;
}

}  // namespace

std::string series_title(const history::Series& s) {
  return fmt::format("{} {} {} ({}{})", s.key.benchmark, s.key.kind, s.key.metric,
                     s.key.profile.empty() ? "profile unknown" : s.key.profile,
                     s.key.machine.empty() ? "" : ", " + s.key.machine);
}

std::string render_history_text(const std::vector<history::Series>& series) {
  if (series.empty()) return "history: no stored point matches along this history\n";
  std::string out;
  for (const auto& s : series) {
    out += fmt::format("{}: {} commit(s), threshold {}{}\n", series_title(s), s.entries.size(),
                       format_threshold(s.threshold), s.deterministic ? ", deterministic" : "");
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
      const auto& e = s.entries[i];
      // Deterministic counts in full: a 0.1% step must be readable in them.
      const std::string value =
          s.deterministic ? fmt::format("{:.0f}", e.value) : format_value(s.key.metric, e.value);
      const std::string step =
          i == 0 ? "" : format_change_precise(e.value / s.entries[i - 1].value - 1);
      out +=
          fmt::format("  {}  {:>14} {:>8}  {:<28} n={:<3} {:<18} {}\n", short_hash(e.commit), value,
                      step, interval_text(e, s.key.metric), e.n, marks(e), clip(e.subject, 60));
    }
    for (const auto& c : s.changes)
      out += fmt::format("  change at {}: {} ({})\n", range_text(c), magnitude_text(c.point),
                         evidence_text(c));
  }
  return out;
}

std::string render_changes_text(const std::vector<history::Series>& series) {
  const auto all = newest_first(series);
  if (all.empty()) return fmt::format("history: no change point in {} series\n", series.size());
  std::string out =
      fmt::format("{} change point(s) in {} series, newest first:\n", all.size(), series.size());
  for (const auto& [s, c] : all)
    out += fmt::format("  {}  {}: {} -> {} {} ({}) \"{}\"\n", range_text(*c), series_title(*s),
                       value_text(*s, c->point.before), value_text(*s, c->point.after),
                       magnitude_text(c->point), evidence_text(*c), clip(c->to_subject, 60));
  return out;
}

std::string render_history_markdown(const std::vector<history::Series>& series) {
  std::string md = "### Trends (perfci history)\n\n";
  if (series.empty()) return md + "No stored point matches along this history.\n";
  md +=
      "| series | trend (oldest → newest) | latest | over the range | newest change point |\n"
      "|---|---|---|---|---|\n";
  for (const auto& s : series) {
    std::vector<double> values;
    for (const auto& e : s.entries) values.push_back(e.value);
    const auto& first = s.entries.front();
    const auto& last = s.entries.back();
    std::string change = "none";
    if (!s.changes.empty()) {
      const auto& c = s.changes.back();
      change = range_text(c) + ": " + magnitude_text(c.point);
    }
    md += fmt::format("| {} | {} | {} | {} over {} commit(s) | {} |\n",
                      markdown_cell(series_title(s)), sparkline(values), value_text(s, last.value),
                      format_change_precise(last.value / first.value - 1), s.entries.size(),
                      markdown_cell(change));
  }
  return md;
}

std::string render_history_html(const std::vector<history::Series>& series,
                                const std::string& database) {
  std::string h = html_page_head("perfci history");
  h += "<h1>perfci history</h1>\n";
  h += fmt::format("<p>{} series from <code>{}</code>, along first-parent history.</p>\n",
                   series.size(), html_escape(database));
  h += "<p>Each point is a commit's newest measurement (its tooltip names the commit); the band is "
       "the median's 95% interval; dashed lines mark commits a baseline was taken at, diamonds "
       "accepted regressions, coloured lines change points.</p>\n";
  for (const auto& s : series) {
    h += "<section class=\"benchmark\">\n<h2>" + html_escape(series_title(s)) + "</h2>\n";
    TrendChart chart;
    chart.title = series_title(s);
    chart.metric = s.key.metric;
    for (const auto& e : s.entries)
      chart.points.push_back(
          {short_hash(e.commit),
           fmt::format("{} {}: {} {}, n={}{}", short_hash(e.commit), e.subject,
                       format_value(s.key.metric, e.value), interval_text(e, s.key.metric), e.n,
                       marks(e).empty() ? "" : " (" + marks(e) + ")"),
           e.value, e.lo, e.hi, e.baseline, e.accepted});
    for (const auto& c : s.changes)
      chart.changes.push_back(
          {c.point.index, format_change_precise(c.point.magnitude), c.point.magnitude > 0});
    h += render_trend_chart(chart);
    if (s.changes.empty()) {
      h += "<p>No change point.</p>\n";
    } else {
      h += "<table>\n<tr><th>commits</th><th>before</th><th>after</th><th>change</th>"
           "<th>evidence</th><th>subject</th></tr>\n";
      for (const auto& c : s.changes)
        h += fmt::format(
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
            "class=\"{}\">{}</td><td>{}</td><td>{}</td></tr>\n",
            html_escape(range_text(c)), html_escape(value_text(s, c.point.before)),
            html_escape(value_text(s, c.point.after)),
            c.point.magnitude > 0 ? "regressed" : "improved", html_escape(magnitude_text(c.point)),
            html_escape(evidence_text(c)), html_escape(c.to_subject));
      h += "</table>\n";
    }
    h += "</section>\n";
  }
  return h + html_page_tail();
}

}  // namespace perfci::report
