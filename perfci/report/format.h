// Number formatting shared by the Markdown and HTML renderings, so both say
// the same thing the same way.
#pragma once

#include <optional>
#include <string>

#include "perfci/report/report.h"

namespace perfci::report {

// "812 ns", "1.25 ms" for time metrics; "2.10M" for counts.
std::string format_value(const std::string& metric, double value);
std::string format_change(double change);  // "+10.4%"
// "+0.73%", "+12.5%": two decimals below 10%, where sub-percent thresholds
// (0.2% for Ir) are decided; "-" when not finite.
std::string format_change_precise(double change);
std::string format_threshold(double threshold);  // 0.002 -> "0.2%"
std::string format_ratio(double ratio);          // "1.104"
std::string format_q(std::optional<double> q);
std::string metric_label(const MetricRun& m);  // "wall real_time_ns", "callgrind ir"

// The metric a table row shows for a benchmark: wall real time when
// measured, else callgrind Ir, else the first one. Null when none.
const MetricRun* primary_metric(const BenchmarkRun& b);

// "ir +10.0%, instructions +9.8%": the other metrics' changes.
std::string other_changes(const BenchmarkRun& b, const MetricRun* primary);

// Benchmarks in report order: failed, regressed, improved, noisy, unchanged;
// names in run order within each.
std::vector<const BenchmarkReport*> benchmarks_worst_first(const Report& r);

std::string side_description(const Side& s);

// A Markdown table cell: '|' escaped, newlines folded to spaces.
std::string markdown_cell(const std::string& s);

// The "why" section's per-symbol table in Markdown, its two cost columns
// named for what is compared ("A"/"B", "baseline"/"this run"). Empty when
// the explanation names no symbol.
std::string markdown_symbol_table(const Explanation& e, const std::string& a_label,
                                  const std::string& b_label);

}  // namespace perfci::report
