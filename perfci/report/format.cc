#include "perfci/report/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace perfci::report {
namespace {

bool is_time(const std::string& metric) {
  return metric.size() > 3 && metric.compare(metric.size() - 3, 3, "_ns") == 0;
}

}  // namespace

std::string format_value(const std::string& metric, double v) {
  if (!std::isfinite(v)) return "-";
  if (is_time(metric) || metric == "task-clock") {
    double a = std::fabs(v);
    if (a >= 1e9) return fmt::format("{:.3g} s", v / 1e9);
    if (a >= 1e6) return fmt::format("{:.3g} ms", v / 1e6);
    if (a >= 1e3) return fmt::format("{:.3g} µs", v / 1e3);
    return fmt::format("{:.3g} ns", v);
  }
  double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.4g}", v);
}

std::string format_change(double change) {
  if (!std::isfinite(change)) return "-";
  return fmt::format("{:+.1f}%", change * 100);
}

std::string format_change_precise(double change) {
  if (!std::isfinite(change)) return "-";
  const double pct = change * 100;
  return std::fabs(pct) < 10 ? fmt::format("{:+.2f}%", pct) : fmt::format("{:+.1f}%", pct);
}

std::string format_threshold(double threshold) { return fmt::format("{:g}%", threshold * 100); }

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio)) return "-";
  return fmt::format("{:.3f}", ratio);
}

std::string format_q(std::optional<double> q) {
  if (!q) return "exact";
  if (*q < 0.001) return "<0.001";
  return fmt::format("{:.3f}", *q);
}

std::string metric_label(const MetricRun& m) { return m.kind + " " + m.metric; }

const MetricRun* primary_metric(const BenchmarkRun& b) {
  for (const auto& m : b.metrics)
    if (m.kind == "wall" && m.metric == "real_time_ns") return &m;
  for (const auto& m : b.metrics)
    if (m.kind == "callgrind") return &m;
  return b.metrics.empty() ? nullptr : &b.metrics.front();
}

std::string other_changes(const BenchmarkRun& b, const MetricRun* primary) {
  std::string out;
  for (const auto& m : b.metrics) {
    if (&m == primary || (m.kind == "wall" && m.metric == "cpu_time_ns")) continue;
    if (!out.empty()) out += ", ";
    out += m.metric + " " + format_change(m.comparison.change());
    if (m.decision.verdict == stats::Verdict::kRegressed ||
        m.decision.verdict == stats::Verdict::kImproved)
      out += " (" + std::string(stats::to_string(m.decision.verdict)) + ")";
  }
  return out;
}

std::vector<const BenchmarkReport*> benchmarks_worst_first(const Report& r) {
  std::vector<const BenchmarkReport*> out;
  for (const auto& b : r.benchmarks) out.push_back(&b);
  std::stable_sort(out.begin(), out.end(), [](const BenchmarkReport* x, const BenchmarkReport* y) {
    return verdict_rank(benchmark_verdict(x->run)) > verdict_rank(benchmark_verdict(y->run));
  });
  return out;
}

std::string side_description(const Side& s) {
  std::string out;
  if (!s.revision.empty()) {
    out += s.revision;
    if (!s.commit.empty()) out += " (" + s.commit.substr(0, 12) + (s.dirty ? "+changes" : "") + ")";
    out += ", ";
  }
  out += s.binary;
  if (!s.build_id.empty()) out += ", build-id " + s.build_id.substr(0, 16);
  return out;
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string markdown_symbol_table(const Explanation& e, const std::string& a_label,
                                  const std::string& b_label) {
  if (e.symbols.empty()) return "";
  std::string md = fmt::format(
      "\n| symbol ({}) | change | {} per iter | {} per iter | share {} | share {} |\n"
      "|---|---|---:|---:|---:|---:|\n",
      e.source, a_label, b_label, a_label, b_label);
  for (const auto& s : e.symbols)
    md += fmt::format("| `{}` | {} | {} | {} | {:.1f}% | {:.1f}% |\n", markdown_cell(s.symbol),
                      s.change, format_value("", s.cost_a), format_value("", s.cost_b),
                      s.share_a * 100, s.share_b * 100);
  return md;
}

}  // namespace perfci::report
