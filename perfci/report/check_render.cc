#include "perfci/report/check_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "perfci/report/format.h"
#include "perfci/report/html_page.h"
#include "perfci/report/shard_render.h"
#include "perfci/report/svg_plot.h"
#include "perfci/runner/revision.h"

namespace perfci::report {
namespace {

std::string short_commit(const std::string& c, bool dirty) {
  if (c.empty()) return "no commit";
  return short_hash(c) + (dirty ? "+changes" : "");
}

struct Row {
  const BenchmarkReport* bench;
  const MetricRun* metric;
  std::string verdict;  // regressed, accepted, improved, unchanged
  int rank;
};

// The word a verdict cell shows: the numbers' verdict, or "accepted".
std::string shown_verdict(stats::Verdict verdict, stats::Gate gate) {
  return std::string(gate == stats::Gate::kAccepted ? stats::to_string(stats::Outcome::kAccepted)
                                                    : stats::to_string(verdict));
}

// What a row's verdict cell says, and how bad it is for ordering: what the
// metric counts as, information-only rows last.
Row make_row(const BenchmarkReport& b, const MetricRun& m) {
  auto counts = stats::metric_outcome(m.decision.verdict, m.gate);
  return {&b, &m, shown_verdict(m.decision.verdict, m.gate),
          stats::rank(counts.value_or(stats::Outcome::kInformation))};
}

// An oracle gap's verdict cell, and its CSS class for the HTML.
std::string gap_verdict(const OracleGap& g) {
  std::string v = g.verdict ? shown_verdict(*g.verdict, g.gate) : "";
  if (g.gate == stats::Gate::kInformation) v += " (information)";
  return v;
}
std::string gap_class(const OracleGap& g) {
  if (g.gate == stats::Gate::kInformation) return "information";
  return g.verdict ? shown_verdict(*g.verdict, g.gate) : "";
}

// CPU time says what real time says on an idle machine; its rows would
// double the table, so they show only when CPU time changed by itself.
bool worth_a_row(const MetricRun& m) {
  return !(m.kind == "wall" && m.metric == "cpu_time_ns" &&
           m.decision.verdict == stats::Verdict::kUnchanged);
}

bool worth_a_row(const OracleGap& g) {
  return !(g.metric == "wall/cpu_time_ns" && g.verdict == stats::Verdict::kUnchanged);
}

std::vector<Row> rows_worst_first(const Report& r) {
  std::vector<Row> rows;
  for (const auto& b : r.benchmarks)
    for (const auto& m : b.run.metrics)
      if (worth_a_row(m)) rows.push_back(make_row(b, m));
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& x, const Row& y) { return x.rank > y.rank; });
  return rows;
}

std::string verdict_text(const Row& row, bool markdown) {
  const MetricRun& m = *row.metric;
  if (m.gate == stats::Gate::kInformation) return row.verdict + " (information)";
  if (row.verdict == "regressed" && markdown) return "**regressed**";
  return row.verdict;
}

std::string gate_line(const CheckGate& g) {
  if (g.gate != stats::Gate::kGated) return "information only: " + g.reason;
  if (g.source == "reference") return "gated " + g.reason;
  return "gated against the stored baseline";
}

std::string lead(const Report& r) {
  const CheckSection& c = *r.check;
  std::string s =
      fmt::format("Suite `{}`: this run ({}, profile `{}`) against the baseline `{}` ({}, made {}",
                  c.suite, short_commit(r.b.commit, r.b.dirty), c.profile, c.baseline_file,
                  short_commit(c.baseline_commit, c.baseline_dirty), c.baseline_created);
  if (c.baseline_profile != c.profile) s += fmt::format(" on profile `{}`", c.baseline_profile);
  s += fmt::format(": \"{}\").", c.baseline_reason);
  return s;
}

}  // namespace

std::string check_outcome(const Report& r) {
  return std::string(stats::to_string(r.check->outcome));
}

std::string github_annotations(const Report& r) {
  auto escape = [](const std::string& text) {
    std::string out;
    for (char c : text) {
      if (c == '%')
        out += "%25";
      else if (c == '\r')
        out += "%0D";
      else if (c == '\n')
        out += "%0A";
      else
        out += c;
    }
    return out;
  };
  std::string out;
  for (const auto* list : {&r.check->errors, &r.check->findings})
    for (const auto& line : *list) out += "::error title=perfci check::" + escape(line) + "\n";
  if (!r.check->not_gated_reason.empty())
    out += "::warning title=perfci check: not gated::" + escape(r.check->not_gated_reason) + "\n";
  return out;
}

std::string render_check_markdown(const Report& r) {
  const CheckSection& c = *r.check;
  std::string md =
      fmt::format("## perfci check: **{}**{}\n\n", check_outcome(r), shard_headline(r));
  if (r.incomplete) md += "**" + incomplete_notice(r) + ".**\n\n";
  if (!c.not_gated_reason.empty())
    md += fmt::format("**Not gated (exit {}):** {}.\n\n",
                      stats::exit_code(stats::CheckOutcome::kNotGated),
                      markdown_cell(c.not_gated_reason));
  md += lead(r) + "\n\n";
  md += shard_markdown(r);
  for (const auto& w : r.warnings) md += "> **warning**: " + markdown_cell(w) + "\n\n";
  if (c.reference && c.reference->error.empty())
    md += fmt::format(
        "Callgrind Ir is gated against `{}` ({}), built{} and counted on this runner, because "
        "the stored baseline cannot gate it here: {}.\n\n",
        c.reference->revision, short_commit(c.reference->commit, false),
        c.reference->reused ? " (cached)" : "", markdown_cell(c.reference->why));
  if (!c.errors.empty()) {
    md += "**Errors (exit 2):**\n\n";
    for (const auto& e : c.errors) md += "- " + markdown_cell(e) + "\n";
    md += "\n";
  }
  if (!c.findings.empty()) {
    md += "**Failing the gate (exit 1):**\n\n";
    for (const auto& f : c.findings) md += "- " + markdown_cell(f) + "\n";
    md += "\n";
  }
  md += fmt::format(
      "{} benchmarks compared: {} regressed, {} accepted, {} improved, {} unchanged, {} "
      "information "
      "only, {} failed.\n\n",
      r.benchmarks.size(), r.counts.regressed, r.counts.accepted, r.counts.improved,
      r.counts.unchanged + r.counts.noisy, r.counts.information, r.counts.failed);
  md += "| metric kind | compared |\n|---|---|\n";
  for (const auto& g : c.gates)
    md += fmt::format("| {} | {} |\n", g.kind, markdown_cell(gate_line(g)));
  md += "\n";
  if (!c.toolchain_differences.empty() || !c.machine_differences.empty()) {
    md += "| profile fact | baseline | this run |\n|---|---|---|\n";
    for (const auto* list : {&c.toolchain_differences, &c.machine_differences})
      for (const auto& f : *list)
        md += fmt::format("| {} | {} | {} |\n", markdown_cell(f.fact), markdown_cell(f.baseline),
                          markdown_cell(f.current));
    md += "\n";
  }

  md += "| benchmark | metric | baseline | this run | change | threshold | verdict |\n";
  md += "|---|---|---:|---:|---:|---:|---|\n";
  for (const Row& row : rows_worst_first(r)) {
    const MetricRun& m = *row.metric;
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(row.bench->run.name),
                      metric_label(m), format_value(m.metric, m.a.front()),
                      format_value(m.metric, m.b.front()),
                      format_change_precise(m.comparison.change()),
                      format_threshold(m.policy.threshold), verdict_text(row, true));
  }
  for (const auto& b : r.benchmarks)
    if (b.run.failed())
      md += fmt::format("| {} | - | - | - | - | - | **failed** |\n", markdown_cell(b.run.name));
  md += "\n";
  bool wall = std::any_of(r.benchmarks.begin(), r.benchmarks.end(), [](const BenchmarkReport& b) {
    return std::any_of(b.run.metrics.begin(), b.run.metrics.end(),
                       [](const MetricRun& m) { return m.kind == "wall"; });
  });
  if (wall)
    md +=
        "CPU time appears only where it changed beyond its threshold; the JSON report holds every "
        "metric.\n\n";

  if (!r.oracle_gaps.empty()) {
    md += "### Oracle gap (engine / oracle), compared on any machine\n\n";
    md += "| workload | metric | baseline | this run | change | threshold | verdict |\n";
    md += "|---|---|---:|---:|---:|---:|---|\n";
    for (const auto& g : r.oracle_gaps) {
      if (!worth_a_row(g)) continue;
      std::string v = gap_verdict(g);
      if (v == "regressed") v = "**regressed**";
      md +=
          fmt::format("| {} | {} | {:.2f}x | {:.2f}x | {} | {} | {} |\n", markdown_cell(g.workload),
                      g.metric, g.gap_a, g.gap_b, format_change_precise(g.change),
                      g.threshold ? format_threshold(*g.threshold) : "-", v);
    }
    md += "\n";
  }

  if (r.b.contracts) {
    const auto& list = r.b.contracts->results;
    md += fmt::format(
        "### Contracts: {} of {} hold\n\n| contract | kind | status | message "
        "|\n|---|---|---|---|\n",
        r.b.contracts->count(contracts::Verdict::kOk), list.size());
    for (const auto& k : list) {
      std::string status(contracts::verdict_name(k.verdict));
      md += fmt::format("| {} | {} | {} | {} |\n", markdown_cell(k.label()),
                        contracts::kind_name(k.contract.kind),
                        k.verdict == contracts::Verdict::kOk ? status : "**" + status + "**",
                        markdown_cell(k.message));
    }
    md += "\n";
  }

  if (!c.accepted.empty()) {
    md +=
        "### Accepted regressions (perfci.json)\n\n| benchmark | metric | commit | reason | status "
        "|\n"
        "|---|---|---|---|---|\n";
    for (const auto& a : c.accepted)
      md += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_cell(a.benchmark), a.metric,
                        a.commit, markdown_cell(a.reason),
                        a.status == "stale"
                            ? "stale: the baseline already includes it; remove the entry"
                            : a.status);
    md += "\n";
  }

  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    if (b->run.failed()) {
      md += fmt::format("### {} failed\n\n```\n{}\n```\n\n", b->run.name, b->run.error);
      continue;
    }
    if (!b->explanation) continue;
    const Explanation& e = *b->explanation;
    md += fmt::format("### Why {} changed\n\n", b->run.name);
    for (const auto& n : e.notes) md += "- " + markdown_cell(n) + "\n";
    md += markdown_symbol_table(e, "baseline", "this run");
    md += "\n";
  }

  if (!c.new_benchmarks.empty()) {
    md += "New benchmarks, not in the baseline:";
    for (const auto& n : c.new_benchmarks) md += " `" + n + "`";
    md += "\n\n";
  }
  if (!c.missing_benchmarks.empty()) {
    md += "In the baseline but not measured now:";
    for (const auto& n : c.missing_benchmarks) md += " `" + n + "`";
    md += "\n\n";
  }
  if (r.exit_code() == 1)
    md +=
        "A regression that is intended is accepted with an entry in perfci.json's `accepted` "
        "list, or by `perfci baseline update --reason \"...\"`.\n";
  else if (r.counts.improved > 0)
    md +=
        "Improvements beyond their threshold are not locked in until the baseline moves: "
        "`perfci baseline update --reason \"...\"` makes them the new bar.\n";
  return md;
}

std::string render_check_html(const Report& r) {
  const CheckSection& c = *r.check;
  auto td = [](const std::string& text, const char* cls = nullptr) {
    return cls ? fmt::format("<td class=\"{}\">{}</td>", cls, html_escape(text))
               : "<td>" + html_escape(text) + "</td>";
  };
  std::string outcome = check_outcome(r);
  std::string h = html_page_head("perfci check: " + outcome);
  std::string outcome_class =
      r.check->outcome == stats::CheckOutcome::kNotGated ? "error" : outcome;
  h += fmt::format("<h1>perfci check: <span class=\"{}\">{}</span>{}</h1>\n", outcome_class,
                   outcome, html_escape(shard_headline(r)));
  for (const auto& w : r.warnings) h += "<p><b>warning</b>: " + html_escape(w) + "</p>\n";
  if (r.incomplete)
    h += "<p class=\"error\"><strong>" + html_escape(incomplete_notice(r)) + ".</strong></p>\n";
  if (!c.not_gated_reason.empty())
    h += fmt::format("<p class=\"error\">Not gated (exit {}): {}.</p>\n",
                     stats::exit_code(stats::CheckOutcome::kNotGated),
                     html_escape(c.not_gated_reason));
  h += "<p>" + html_escape(lead(r)) + "</p>\n";
  h += shard_html(r);
  for (const auto& [title, list] :
       {std::pair{"Errors (exit 2)", &c.errors}, {"Failing the gate (exit 1)", &c.findings}}) {
    if (list->empty()) continue;
    h += fmt::format("<h2>{}</h2>\n<ul>\n", title);
    for (const auto& line : *list) h += "<li>" + html_escape(line) + "</li>\n";
    h += "</ul>\n";
  }
  h += "<table>\n<tr><th>metric kind</th><th>compared</th></tr>\n";
  for (const auto& g : c.gates)
    h += "<tr>" + td(g.kind) + td(gate_line(g), std::string(stats::to_string(g.gate)).c_str()) +
         "</tr>\n";
  h += "</table>\n";
  if (!c.toolchain_differences.empty() || !c.machine_differences.empty()) {
    h += "<table>\n<tr><th>profile fact</th><th>baseline</th><th>this run</th></tr>\n";
    for (const auto* list : {&c.toolchain_differences, &c.machine_differences})
      for (const auto& f : *list)
        h += "<tr>" + td(f.fact) + td(f.baseline) + td(f.current) + "</tr>\n";
    h += "</table>\n";
  }
  h += "<table>\n<tr><th>benchmark</th><th>metric</th><th>baseline</th><th>this "
       "run</th><th>change</th>"
       "<th>threshold</th><th>verdict</th></tr>\n";
  for (const Row& row : rows_worst_first(r)) {
    const MetricRun& m = *row.metric;
    std::string cls = m.gate == stats::Gate::kInformation ? "information" : row.verdict;
    h += "<tr>" + td(row.bench->run.name) + td(metric_label(m)) +
         td(format_value(m.metric, m.a.front()), "num") +
         td(format_value(m.metric, m.b.front()), "num") +
         td(format_change_precise(m.comparison.change()), "num") +
         td(format_threshold(m.policy.threshold), "num") +
         td(verdict_text(row, false), cls.c_str()) + "</tr>\n";
  }
  for (const auto& b : r.benchmarks)
    if (b.run.failed())
      h += "<tr>" + td(b.run.name) + "<td colspan=\"5\"><pre>" + html_escape(b.run.error) +
           "</pre></td>" + td("failed", "failed") + "</tr>\n";
  h += "</table>\n";
  if (!r.oracle_gaps.empty()) {
    h += "<h2>Oracle gap (engine / oracle), compared on any "
         "machine</h2>\n<table>\n<tr><th>workload</th>"
         "<th>metric</th><th>baseline</th><th>this "
         "run</th><th>change</th><th>threshold</th><th>verdict</th></tr>\n";
    for (const auto& g : r.oracle_gaps) {
      if (!worth_a_row(g)) continue;
      std::string v = gap_verdict(g);
      std::string cls = gap_class(g);
      h += "<tr>" + td(g.workload) + td(g.metric) + td(fmt::format("{:.2f}x", g.gap_a), "num") +
           td(fmt::format("{:.2f}x", g.gap_b), "num") + td(format_change_precise(g.change), "num") +
           td(g.threshold ? format_threshold(*g.threshold) : "-", "num") + td(v, cls.c_str()) +
           "</tr>\n";
    }
    h += "</table>\n";
  }
  if (r.b.contracts) {
    h += "<h2>Contracts</h2>\n<table>\n<tr><th>contract</th><th>kind</th><th>status</"
         "th><th>message</th></tr>\n";
    for (const auto& k : r.b.contracts->results) {
      std::string status(contracts::verdict_name(k.verdict));
      h += "<tr>" + td(k.label()) + td(std::string(contracts::kind_name(k.contract.kind))) +
           td(status, status.c_str()) + td(k.message) + "</tr>\n";
    }
    h += "</table>\n";
  }
  if (!c.accepted.empty()) {
    h += "<h2>Accepted "
         "regressions</h2>\n<table>\n<tr><th>benchmark</th><th>metric</th><th>commit</th>"
         "<th>reason</th><th>status</th></tr>\n";
    for (const auto& a : c.accepted)
      h += "<tr>" + td(a.benchmark) + td(a.metric) + td(a.commit) + td(a.reason) + td(a.status) +
           "</tr>\n";
    h += "</table>\n";
  }
  for (const BenchmarkReport* b : benchmarks_worst_first(r)) {
    if (!b->explanation) continue;
    h += "<h2>Why " + html_escape(b->run.name) + " changed</h2>\n<ul>\n";
    for (const auto& n : b->explanation->notes) h += "<li>" + html_escape(n) + "</li>\n";
    h += "</ul>\n";
    for (const auto& m : b->run.metrics)
      if (m.decision.verdict == stats::Verdict::kRegressed ||
          m.decision.verdict == stats::Verdict::kImproved)
        h += render_strip_plot({b->run.name + " — " + metric_label(m), m.metric, m.a, m.b, "pair"});
  }
  h += html_page_tail();
  return h;
}

}  // namespace perfci::report
