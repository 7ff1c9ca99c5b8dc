// perfci report REPORT.json --format md|html: renders a saved report.
#include <fmt/core.h>

#include <memory>

#include "perfci/cli/commands.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/util/files.h"

namespace perfci::cli {
namespace {

struct ReportArgs {
  std::string path;
  std::string format = "md";
  std::string out;
};

int run_report(const ReportArgs& a) {
  perfci::Report r = perfci::load_report(a.path);
  std::string text = a.format == "html" ? report::render_html(r) : report::render_markdown(r);
  if (a.out.empty())
    fmt::print("{}", text);
  else
    write_file_atomic(a.out, text);
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Render a saved A/B report as Markdown or HTML");
  cmd->add_option("report", args->path, "A report written by ab, aa or compare (--out)")
      ->required();
  cmd->add_option("--format", args->format, "md or html")->check(CLI::IsMember({"md", "html"}));
  cmd->add_option("--out", args->out, "Write here instead of stdout");
  cmd->callback([runner, args] { *runner = [args] { return run_report(*args); }; });
}

}  // namespace perfci::cli
