// What the Markdown and HTML renderings share, so both say the same thing
// the same way: labels, the row order, the per-symbol table. Numbers are
// spelled by model/number_format.h, which the check's reasons use too.
#pragma once

#include <optional>
#include <string>

#include "perfci/model/number_format.h"
#include "perfci/model/report.h"

namespace perfci::report {

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

// For a run a signal stopped: "incomplete: interrupted by SIGINT after 3 of
// 10 pairs (exit 130); what follows is what was measured until then". Empty
// for a complete run. Both renderings put it right under the headline.
std::string incomplete_notice(const Report& r);

// The A/B headline's word: "incomplete" for a stopped run (a verdict on
// part of the pairs is not one), else the verdict.
std::string ab_headline(const Report& r);

// A Markdown table cell: '|' escaped, newlines folded to spaces.
std::string markdown_cell(const std::string& s);

// The "why" section's per-symbol table in Markdown, its two cost columns
// named for what is compared ("A"/"B", "baseline"/"this run"). Empty when
// the explanation names no symbol.
std::string markdown_symbol_table(const Explanation& e, const std::string& a_label,
                                  const std::string& b_label);

// The sentence an unpaired report (two Google Benchmark files) opens with:
// what was compared, how, and what it cannot say.
std::string unpaired_sentence();

}  // namespace perfci::report
