#include "perfci/app/history_recording.h"

#include <fmt/format.h>

#include <cstdlib>

#include "perfci/baseline/profile.h"
#include "perfci/history/results_db.h"
#include "perfci/runner/revision.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci::app {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::size_t point_count(const history::RunRecord& run) {
  std::size_t n = 0;
  for (const auto& s : run.sides) n += s.points.size();
  return n;
}

}  // namespace

std::optional<fs::path> recording_database(const CommonFlags& f,
                                           const std::optional<Config>& config) {
  if (f.no_history) return std::nullopt;
  if (!f.history.empty()) return fs::absolute(f.history);
  if (config && config->history) return fs::absolute(history_database(*config));
  return std::nullopt;
}

std::string current_branch(const fs::path& repo) {
  for (const char* name : {"GITHUB_HEAD_REF", "GITHUB_REF_NAME"})
    if (std::string v = env(name); !v.empty()) return v;
  const SubprocessResult r =
      run_git(repo.empty() ? fs::path(".") : repo, {"symbolic-ref", "--short", "-q", "HEAD"});
  return r.ok() ? trim(r.out) : "";
}

void record_run(history::RunRecord run, const fs::path& db, const fs::path& repo) {
  const fs::path where = repo.empty() ? fs::current_path() : repo;
  history::fill_parents(run, where);
  if (run.branch.empty()) run.branch = current_branch(where);
  history::ResultsDb store = history::ResultsDb::open(db);
  const std::size_t points = point_count(run);
  if (auto id = store.add_run(run))
    fmt::print(stderr, "history: recorded run {} in {} ({} points)\n", *id, db.string(), points);
  else
    fmt::print(stderr, "history: this run ({}) is in {} already; nothing recorded\n", run.key,
               db.string());
}

void record_report(const CommonFlags& f, const std::optional<Config>& config, const Report& rep,
                   const std::string& command, const fs::path& repo) {
  auto db = recording_database(f, config);
  if (!db) return;
  if (rep.incomplete) {
    fmt::print(stderr, "history: not recorded in {}: {}\n", db->string(), rep.incomplete->reason());
    return;
  }
  history::RunRecord run = history::record_from_report(rep, command);
  // A/B reports carry no profile id; the binaries measured say which it is.
  for (auto& side : run.sides) {
    if (!side.profile.empty()) continue;
    if (side.label == "A") side.profile = profile_of_binary(rep.a.binary);
    if (side.label == "B") side.profile = profile_of_binary(rep.b.binary);
  }
  record_run(std::move(run), *db, repo);
}

std::string profile_of_binary(const std::string& binary) {
  if (binary.empty()) return "";
  // The build type comes from the build folder's CMakeCache.txt, as check
  // reads it (a RelWithDebInfo build is "relwithdebinfo", not "release"):
  // the nearest folder above the binary that has one.
  baseline::ProfileOptions options;
  std::error_code ec;
  for (fs::path dir = fs::absolute(binary, ec).parent_path(); !dir.empty();
       dir = dir.parent_path()) {
    if (fs::exists(dir / "CMakeCache.txt", ec)) {
      options.build_dir = dir;
      break;
    }
    if (dir == dir.root_path()) break;
  }
  try {
    return baseline::collect_profile(binary, options).id;
  } catch (const std::exception&) {
    return "";  // gone or unreadable: the series of an unknown profile
  }
}

void record_bisect(const CommonFlags& f, const std::optional<Config>& config,
                   const BisectReport& report, const std::map<std::string, std::string>& binaries,
                   const fs::path& repo) {
  auto db = recording_database(f, config);
  if (!db) return;
  if (report.incomplete) {
    fmt::print(stderr, "history: not recorded in {}: {}\n", db->string(),
               report.incomplete->reason());
    return;
  }
  std::map<std::string, std::string> profiles;
  for (const auto& [commit, binary] : binaries) profiles[commit] = profile_of_binary(binary);
  record_run(history::record_from_bisect(report, profiles), *db, repo);
}

void record_results(const CommonFlags& f, const std::optional<Config>& config,
                    const RunResults& results) {
  auto db = recording_database(f, config);
  if (!db) return;
  if (results.incomplete) {
    fmt::print(stderr, "history: not recorded in {}: {}\n", db->string(),
               results.incomplete->reason());
    return;
  }
  std::string commit;
  bool dirty = false;
  fs::path repo;
  try {
    repo = git_toplevel(fs::absolute(results.binary).parent_path());
    commit = resolve_commit(repo, "HEAD");
    dirty = worktree_is_dirty(repo);
  } catch (const std::exception&) {
    commit.clear();  // not in git (or a repository without commits): no commit to name
  }
  record_run(
      history::record_from_results(results, commit, dirty, profile_of_binary(results.binary)), *db,
      repo);
}

}  // namespace perfci::app
