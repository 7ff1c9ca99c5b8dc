// perfci report REPORT.json --format md|html: renders a saved report; given a
// Google Benchmark JSON file it renders that file's benchmarks, and given two
// it renders their unpaired comparison (as `perfci ab --a-json --b-json`).
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "perfci/app/gbench_ab.h"
#include "perfci/cli/commands.h"
#include "perfci/meters/gbench_output.h"
#include "perfci/report/gbench_table.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> paths;
  std::string format = "md";
  std::string out;
};

nlohmann::json load_json(const std::string& path) {
  try {
    return nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
}

// A Google Benchmark file, or a perfci results file (which spells its wall
// times the Google Benchmark way).
bool is_benchmark_file(const nlohmann::json& doc) {
  return is_gbench_document(doc) || (doc.is_object() && doc.value("schema", "") == kResultsSchema);
}

int run_report(const ReportArgs& a) {
  std::string text;
  if (a.paths.size() == 2) {
    for (const auto& p : a.paths)
      if (!is_benchmark_file(load_json(p)))
        throw Error(p +
                    ": not a Google Benchmark JSON file; `perfci report A.json B.json` "
                    "compares two of them");
    AbFlags flags;
    Report r = gbench_ab_report(parse_gbench_samples(read_file(a.paths[0]), a.paths[0]), a.paths[0],
                                parse_gbench_samples(read_file(a.paths[1]), a.paths[1]), a.paths[1],
                                flags, "report");
    text = a.format == "html" ? report::render_html(r) : report::render_markdown(r);
  } else {
    const std::string& path = a.paths.front();
    const nlohmann::json doc = load_json(path);
    if (is_benchmark_file(doc)) {
      GbenchFile f;
      try {
        f = parse_gbench_samples(doc.dump(), path);
      } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (perfci report reads a " + kReportSchema +
                    " report, a Google Benchmark JSON file or a " + kResultsSchema + " file)");
      }
      text = a.format == "html" ? report::render_gbench_html(f, path)
                                : report::render_gbench_markdown(f, path);
    } else {
      perfci::Report r = perfci::report_from_json(doc, path);
      text = a.format == "html" ? report::render_html(r) : report::render_markdown(r);
    }
  }
  if (a.out.empty())
    fmt::print("{}", text);
  else
    write_file_atomic(a.out, text);
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report",
      "Render a saved A/B report, a Google Benchmark JSON file, or the comparison of two");
  cmd->add_option("report", args->paths,
                  "A report written by ab, aa or compare (--out); or a Google Benchmark JSON "
                  "file (its benchmarks as a table); or two of them (their unpaired comparison)")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--format", args->format, "md or html")->check(CLI::IsMember({"md", "html"}));
  cmd->add_option("--out", args->out, "Write here instead of stdout");
  cmd->callback([runner, args] { *runner = [args] { return run_report(*args); }; });
}

}  // namespace perfci::cli
