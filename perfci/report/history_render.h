// The renderings of a results database's series (perfci history show and
// perfci history changes): a text table per series, the change points
// newest first, Markdown trend lines for a pull request's step summary, and
// one offline HTML page with a trend chart per series.
#pragma once

#include <string>
#include <vector>

#include "perfci/model/history_series.h"

namespace perfci::report {

// "engine/read_join callgrind ir (x86_64-debian12-gcc12-release)"
std::string series_title(const history::Series& s);

// Per series: one row per commit (oldest first) with its value, interval,
// samples and marks, then its change points.
std::string render_history_text(const std::vector<history::Series>& series);

// Every change point of every series, newest first: the commit range, the
// magnitude with its interval, the method and its p-value.
std::string render_changes_text(const std::vector<history::Series>& series);

// A Markdown table: per series its recent trend as a sparkline, the latest
// value, the change over the shown range and its newest change point.
std::string render_history_markdown(const std::vector<history::Series>& series);

// One self-contained page: per series a trend chart and its change points.
std::string render_history_html(const std::vector<history::Series>& series,
                                const std::string& database);

}  // namespace perfci::report
