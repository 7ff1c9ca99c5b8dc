#include "perfci/report/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "perfci/runner/revision.h"

namespace perfci::report {
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
    return stats::rank(benchmark_outcome(x->run)) > stats::rank(benchmark_outcome(y->run));
  });
  return out;
}

std::string incomplete_notice(const Report& r) {
  if (!r.incomplete) return "";
  return "incomplete: " + r.incomplete->reason() + " (exit " +
         std::to_string(r.incomplete->exit_code()) +
         "); what follows is what was measured until then";
}

std::string ab_headline(const Report& r) {
  return r.incomplete ? "incomplete" : std::string(stats::to_string(r.verdict));
}

std::string side_description(const Side& s) {
  std::string out;
  if (!s.revision.empty()) {
    out += s.revision;
    if (!s.commit.empty()) out += " (" + short_hash(s.commit) + (s.dirty ? "+changes" : "") + ")";
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

std::string unpaired_sentence() {
  return "Unpaired: two Google Benchmark files measured apart, not interleaved; each repetition "
         "is a sample. Compared with the rank-sum (Mann-Whitney U) test and the "
         "Hodges-Lehmann interval of the ratio; a change of the machine between the two runs "
         "looks the same as a change of the code, and nothing here tells what interleaved "
         "pairs (perfci ab --a/--b) would show. Each file is one process, whose memory layout "
         "and machine state move all its repetitions together: a change is claimed only when "
         "its whole interval is beyond the unpaired threshold (--unpaired-threshold, default "
         "5%).";
}

}  // namespace perfci::report
