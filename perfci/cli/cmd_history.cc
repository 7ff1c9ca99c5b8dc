// perfci history: the results database (issue 16). A group of subcommands:
//   import FILE...   store saved reports (perfci.report/1) and results
//                    (perfci.results/1), each once (by its content key).
// --history names the database, else perfci.json's history.database.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "perfci/app/history_recording.h"
#include "perfci/cli/commands.h"
#include "perfci/history/results_db.h"
#include "perfci/history/run_record.h"
#include "perfci/util/error.h"

namespace perfci::cli {
namespace {

namespace fs = std::filesystem;

struct ImportArgs {
  CommonFlags flags;
  std::vector<std::string> files;
};

// The database of --history, else perfci.json's; an error naming both ways
// when there is neither (an import needs somewhere to go).
fs::path database_of(const CommonFlags& f) {
  const auto config = load_optional_config(f);
  auto db = recording_database(f, config);
  if (!db)
    throw Error(
        "history: no results database: give --history PATH, or set history.database in "
        "perfci.json");
  return *db;
}

int run_import(const ImportArgs& a) {
  const fs::path db = database_of(a.flags);
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

}  // namespace

void add_history_command(CLI::App& app, CommandRunner* runner) {
  auto* cmd = app.add_subcommand("history", "The results database: every recorded run");
  cmd->require_subcommand(1);

  auto args = std::make_shared<ImportArgs>();
  auto* import = cmd->add_subcommand(
      "import", "Store saved reports and results files (each once) in the results database");
  import->add_option("files", args->files, "Report or results JSON files (reports/*.json)")
      ->required();
  add_common_flags(import, args->flags, kConfigFlag);
  import->add_option("--history", args->flags.history,
                     "The results database (default: perfci.json's history.database)");
  import->callback([runner, args] { *runner = [args] { return run_import(*args);
};
}  // namespace perfci::cli
);
}

}  // namespace perfci::cli
