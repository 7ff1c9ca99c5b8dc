#include "perfci/report/gbench_table.h"

#include <fmt/core.h>

#include <algorithm>
#include <vector>

#include "perfci/env/build_info.h"
#include "perfci/model/number_format.h"
#include "perfci/report/format.h"
#include "perfci/report/svg_plot.h"
#include "perfci/stats/descriptive.h"

namespace perfci::report {
namespace {

struct Row {
  std::string name;
  std::string repetitions;
  std::string real_time;
  std::string cpu_time;
  std::string iterations;
  std::string status;
};

std::string spread(const std::vector<double>& v) {
  if (v.empty()) return "-";
  const std::string mid = format_value("real_time_ns", stats::median(v));
  if (v.size() == 1) return mid;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return fmt::format("{} ({} … {})", mid, format_value("real_time_ns", *lo),
                     format_value("real_time_ns", *hi));
}

std::vector<Row> rows_of(const GbenchFile& f) {
  std::vector<Row> rows;
  for (const GbenchSamples& s : f.benchmarks) {
    Row r;
    r.name = s.name;
    r.repetitions = std::to_string(s.real_time_ns.size());
    r.real_time = spread(s.real_time_ns);
    r.cpu_time = spread(s.cpu_time_ns);
    if (!s.iterations.empty()) {
      std::vector<double> it(s.iterations.begin(), s.iterations.end());
      r.iterations = fmt::format("{:.0f}", stats::median(it));
    } else {
      r.iterations = "-";
    }
    r.status = !s.error.empty()     ? "failed: " + s.error
               : !s.skipped.empty() ? "skipped: " + s.skipped
                                    : "ok";
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string context_line(const nlohmann::json& c) {
  std::string out;
  for (const char* key : {"executable", "date", "host_name", "num_cpus", "library_build_type"})
    if (c.contains(key))
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", key,
                         c[key].is_string() ? c[key].get<std::string>() : c[key].dump());
  return out.empty() ? "no context" : out;
}

}  // namespace

std::string render_gbench_markdown(const GbenchFile& f, const std::string& path) {
  std::string md = fmt::format("## Google Benchmark file {}\n\n", markdown_cell(path));
  md += fmt::format("{} benchmark(s); {}.\n\n", f.benchmarks.size(),
                    markdown_cell(context_line(f.context)));
  for (const auto& w : provenance_warnings(path, nullptr, f.context))
    md += "> **warning**: " + markdown_cell(w) + "\n\n";
  md +=
      "| benchmark | repetitions | real time (median, range) | CPU time (median, range) | "
      "iterations | status |\n|---|---:|---:|---:|---:|---|\n";
  for (const Row& r : rows_of(f))
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_cell(r.name), r.repetitions,
                      r.real_time, r.cpu_time, r.iterations, markdown_cell(r.status));
  md +=
      "\nOne file compares nothing: `perfci report A.json B.json` (or `perfci ab --a-json A.json "
      "--b-json B.json`) compares two.\n";
  return md;
}

std::string render_gbench_html(const GbenchFile& f, const std::string& path) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<title>Google Benchmark file " + html_escape(path) + "</title>\n</head>\n<body>\n";
  h += "<h1>Google Benchmark file " + html_escape(path) + "</h1>\n";
  h += fmt::format("<p>{} benchmark(s); {}.</p>\n", f.benchmarks.size(),
                   html_escape(context_line(f.context)));
  for (const auto& w : provenance_warnings(path, nullptr, f.context))
    h += "<p><b>warning</b>: " + html_escape(w) + "</p>\n";
  h += "<table>\n<tr><th>benchmark</th><th>repetitions</th><th>real time (median, "
       "range)</th><th>CPU time (median, range)</th><th>iterations</th><th>status</th></tr>\n";
  for (const Row& r : rows_of(f))
    h += "<tr><td>" + html_escape(r.name) + "</td><td>" + r.repetitions + "</td><td>" +
         html_escape(r.real_time) + "</td><td>" + html_escape(r.cpu_time) + "</td><td>" +
         r.iterations + "</td><td>" + html_escape(r.status) + "</td></tr>\n";
  h += "</table>\n</body>\n</html>\n";
  return h;
}

}  // namespace perfci::report
