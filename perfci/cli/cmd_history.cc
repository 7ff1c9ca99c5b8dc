// perfci history: the results database (issue 16). A group of subcommands:
//   import FILE...   store saved reports (perfci.report/1) and results
//                    (perfci.results/1), each once (by its content key).
//   show             each series along first-parent history: a table, and
//                    the Markdown, HTML and JSON renderings on request.
//   changes          the change points, newest first.
// --history names the database, else perfci.json's history.database.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "perfci/app/history_recording.h"
#include "perfci/app/history_view.h"
#include "perfci/cli/commands.h"
#include "perfci/history/results_db.h"
#include "perfci/history/run_record.h"
#include "perfci/report/history_render.h"
#include "perfci/runner/metric_policy.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::cli {
namespace {

namespace fs = std::filesystem;

struct ImportArgs {
  CommonFlags flags;
  std::vector<std::string> files;
};

// The database of --history, else perfci.json's; an error naming both ways
// when there is neither (an import needs somewhere to go).
fs::path database_of(const CommonFlags& f, const std::optional<Config>& config) {
  auto db = recording_database(f, config);
  if (!db)
    throw Error(
        "history: no results database: give --history PATH, or set history.database in "
        "perfci.json");
  return *db;
}

int run_import(const ImportArgs& a) {
  const fs::path db = database_of(a.flags, load_optional_config(a.flags));
  // Every file is read before anything is stored: a bad one is named and
  // nothing of the import is in the database.
  std::vector<history::RunRecord> records;
  for (const std::string& file : a.files) records.push_back(history::record_from_file(file));
  history::ResultsDb store = history::ResultsDb::open(db);
  int imported = 0, present = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    history::RunRecord& run = records[i];
    // The parents are the current repository's view of the commits.
    history::fill_parents(run, fs::current_path());
    if (store.add_run(run))
      ++imported;
    else
      ++present;
  }
  fmt::print("history: imported {}, already present {}, from {} files into {}\n", imported, present,
             records.size(), db.string());
  return 0;
}

struct ViewArgs {
  CommonFlags flags;
  app::HistoryViewOptions view;
  std::string changed_report;
  std::string markdown;  // "-": stdout
  std::string html;
  std::string json;
};

app::HistoryViewOptions view_options(const ViewArgs& a) {
  app::HistoryViewOptions o = a.view;
  const auto config = load_optional_config(a.flags);
  o.database = database_of(a.flags, config);
  o.repo = fs::current_path();
  if (!a.changed_report.empty()) o.changed_report = a.changed_report;
  // perfci.json's change-point settings, or their documented defaults
  // (ChangePointConfig's) without a history section or a perfci.json.
  ChangePointConfig cp;
  if (config) {
    o.policies = MetricPolicies::from_config(config->raw, config->path.string());
    if (config->history) cp = config->history->change_points;
  }
  o.change.e_divisive.alpha = cp.alpha;
  o.change.e_divisive.permutations = cp.permutations;
  o.change.e_divisive.min_magnitude = cp.min_magnitude;
  return o;
}

void write_output(const std::string& where, const std::string& text) {
  if (where == "-")
    fmt::print("{}", text);
  else
    write_file_atomic(where, text);
}

int run_show(const ViewArgs& a) {
  const auto o = view_options(a);
  const auto series = app::load_history_series(o);
  // With --markdown - or --json - that is the output (a step summary, a
  // pipe); else the table.
  if (a.markdown != "-" && a.json != "-") fmt::print("{}", report::render_history_text(series));
  if (!a.markdown.empty()) {
    std::string md = report::render_history_markdown(series);
    if (series.empty() && o.changed_report)
      md = "### Trends (perfci history)\n\nNothing in " + o.changed_report->string() +
           " changed (regressed, improved or accepted): no trend to show.\n";
    write_output(a.markdown, md);
  }
  if (!a.html.empty())
    write_output(a.html, report::render_history_html(series, o.database.string()));
  if (!a.json.empty())
    write_output(a.json, history::series_json(series, o.database.string(), o.head).dump(2) + "\n");
  return 0;
}

int run_changes(const ViewArgs& a) {
  const auto o = view_options(a);
  const auto series = app::load_history_series(o);
  if (a.json != "-") fmt::print("{}", report::render_changes_text(series));
  if (!a.json.empty())
    write_output(a.json, history::series_json(series, o.database.string(), o.head).dump(2) + "\n");
  return 0;
}

void add_history_flags(CLI::App* cmd, CommonFlags& flags) {
  add_common_flags(cmd, flags, kConfigFlag);
  cmd->add_option("--history", flags.history,
                  "The results database (default: perfci.json's history.database)");
}

void add_view_flags(CLI::App* cmd, ViewArgs& a) {
  add_history_flags(cmd, a.flags);
  cmd->add_option("--benchmark", a.view.benchmark_regex, "Only benchmarks this regex finds");
  cmd->add_option("--metric", a.view.metric,
                  "Only this metric: ir, real_time_ns, or kind/metric (callgrind/ir)");
  cmd->add_option("--profile", a.view.profile, "Only this profile id");
  cmd->add_option("--head", a.view.head,
                  "Read the first-parent history of this revision (default: HEAD)");
  cmd->add_option("--last", a.view.last,
                  "The newest N commits of that history (default: 50; 0: all)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--json", a.json,
                  "Write the series and change points as JSON here ('-': stdout)");
}

}  // namespace

void add_history_command(CLI::App& app, CommandRunner* runner) {
  auto* cmd = app.add_subcommand("history", "The results database: every recorded run");
  cmd->require_subcommand(1);

  auto import_args = std::make_shared<ImportArgs>();
  auto* import = cmd->add_subcommand(
      "import", "Store saved reports and results files (each once) in the results database");
  import->add_option("files", import_args->files, "Report or results JSON files (reports/*.json)")
      ->required();
  add_history_flags(import, import_args->flags);
  import->callback(
      [runner, import_args] { *runner = [import_args] { return run_import(*import_args);
};
}  // namespace perfci::cli
);

auto show_args = std::make_shared<ViewArgs>();
auto* show = cmd->add_subcommand(
    "show", "Each benchmark metric's value per commit along first-parent history");
add_view_flags(show, *show_args);
show->add_option("--changed", show_args->changed_report,
                 "Only the benchmarks this report found changed (a pull request's summary)");
show->add_option("--markdown", show_args->markdown,
                 "Write trend sparklines as Markdown here ('-': stdout, instead of the table)");
show->add_option("--html", show_args->html, "Write the page of trend charts here");
show->callback([runner, show_args] { *runner = [show_args] { return run_show(*show_args); }; });

auto changes_args = std::make_shared<ViewArgs>();
auto* changes = cmd->add_subcommand("changes", "The change points of every series, newest first");
add_view_flags(changes, *changes_args);
changes->callback([runner, changes_args] {
  *runner = [changes_args] { return run_changes(*changes_args); };
});
}

}  // namespace perfci::cli
