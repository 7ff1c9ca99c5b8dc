#include "perfci/app/report_folder.h"

#include <fmt/format.h>

#include <cstdlib>

#include "perfci/report/check_render.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::app {

std::string commit_stem(const std::string& commit, bool dirty) {
  return commit.empty() ? "no-commit" : commit + (dirty ? "-dirty" : "");
}

std::string write_report_folder(const Report& rep, const std::filesystem::path& out,
                                const std::string& stem, const std::string& latest) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) throw Error(out.string() + ": cannot create the reports folder: " + ec.message());
  const std::string md = report::render_markdown(rep);
  save_report(rep, (out / (stem + ".json")).string());
  save_report(rep, (out / (latest + ".json")).string());
  write_file_atomic(out / (latest + ".md"), md);
  write_file_atomic(out / (latest + ".html"), report::render_html(rep));
  return md;
}

int print_check_outcome(const Report& rep, const char* command, const std::string& md, bool quiet,
                        bool github, const std::string& where) {
  if (!quiet) fmt::print("{}", md);
  const char* env = std::getenv("GITHUB_ACTIONS");
  if (github || (env && std::string(env) == "true"))
    fmt::print("{}", report::github_annotations(rep));
  const CheckSection& c = *rep.check;
  for (const auto& e : c.errors) fmt::print(stderr, "perfci: error: {}: {}\n", command, e);
  for (const auto& f : c.findings) fmt::print(stderr, "perfci {}: FAIL: {}\n", command, f);
  if (!c.not_gated_reason.empty())
    fmt::print(stderr, "perfci {}: NOT GATED: {}\n", command, c.not_gated_reason);
  fmt::print(stderr, "perfci {}: {} (exit {}, {} gated metric(s)); {}\n", command,
             report::check_outcome(rep), rep.exit_code(), c.gated_metrics, where);
  return rep.exit_code();
}

}  // namespace perfci::app
