// End to end: the results database as CI uses it. `perfci check --history`
// records its run and `history import` of the report it wrote stores
// nothing twice; a database that is not one fails the command after the
// reports are written; two processes writing one database at once lose
// nothing; and a writer killed with SIGKILL mid-write leaves a database that
// opens, passes quick_check and holds every run it had reported committed.
// Nothing here asserts a timing: the kills happen after a chosen number of
// committed runs, wherever the writer then is.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "perfci/history/results_db.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/git_project_testing.h"
#include "tests/perfci_cli_testing.h"

extern char** environ;

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace perfci::testing;  // NOLINT(google-build-using-namespace)

// A project as perfci_check_test.cc makes one: a git repository whose
// build/release holds fixture A, callgrind only, and a baseline.
class PerfciHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() / "project";
    fs::create_directories(root_ / "build" / "release");
    write_file_atomic(root_ / "perfci.json", R"({"schema": "perfci.config/1",
      "build": {"preset": "release", "targets": ["bench"]},
      "suites": [{"name": "fx", "binary": "bench", "callgrind": {"iterations": 2}}],
      "check": {"meters": ["callgrind"]},
      "metrics": {"callgrind": {"threshold": 0.002}}})");
    write_file_atomic(root_ / ".gitignore", "/build/\n/reports/\n/*.db*\n");
    fs::copy_file(FX_A, root_ / "build" / "release" / "bench");
    git(root_, {"init", "-q"});
    git(root_, {"add", "."});
    git(root_, {"commit", "-q", "-m", "first"});
    git(root_, {"commit", "-q", "--allow-empty", "-m", "second"});
  }

  SubprocessResult perfci(std::vector<std::string> args, bool suite_flags = true) {
    SubprocessOptions o;
    o.argv = {PERFCI_BINARY};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    if (suite_flags) o.argv.insert(o.argv.end(), {"--no-build", "--quiet"});
    o.cwd = root_.string();
    o.unset_env = {"GITHUB_ACTIONS", "GITHUB_HEAD_REF", "GITHUB_REF_NAME"};
    o.timeout = std::chrono::minutes(10);
    return run_subprocess(o);
  }

  TempDir dir_{"perfci-history"};
  fs::path root_;
};

TEST_F(PerfciHistory, CheckRecordsAndImportingItsReportStoresNothingNew) {
  auto made = perfci({"baseline", "update"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  // Without --history and without history.database, nothing is recorded.
  auto plain = perfci({"check"});
  ASSERT_EQ(plain.exit_code, 0) << explain(plain);
  EXPECT_FALSE(has(plain.err_tail, "history:")) << plain.err_tail;

  const fs::path db = root_ / "h.db";
  auto checked = perfci({"check", "--history", "h.db"});
  ASSERT_EQ(checked.exit_code, 0) << explain(checked);
  EXPECT_TRUE(has(checked.err_tail, "history: recorded run 1 in " + db.string() + " ("))
      << explain(checked);

  {
    auto store = history::ResultsDb::open(db);
    auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const history::RunRecord& r = runs[0].record;
    EXPECT_EQ(r.command, "check");
    EXPECT_EQ(r.outcome, "pass");
    EXPECT_EQ(r.suite, "fx");
    EXPECT_NE(r.branch, "");  // git init's default branch
    ASSERT_EQ(r.sides.size(), 2u);
    EXPECT_EQ(r.sides[1].label, "B");
    EXPECT_EQ(r.sides[1].commit, head(root_));
    EXPECT_NE(r.sides[1].parent, "");  // the first commit
    EXPECT_NE(r.sides[1].profile, "");
    // Three benchmarks, each with callgrind Ir, allocations and bytes
    // allocated per iteration.
    EXPECT_EQ(r.sides[1].points.size(), 9u);
    EXPECT_EQ(r.sides[0].points.size(), 9u);
    std::set<std::string> metrics;
    for (const auto& p : r.sides[1].points) {
      EXPECT_EQ(p.kind, "callgrind");
      EXPECT_TRUE(p.deterministic);
      metrics.insert(p.metric);
    }
    EXPECT_EQ(metrics, (std::set<std::string>{"ir", "allocations", "allocated_bytes"}));
  }

  // The report it wrote is that very run.
  auto again = perfci({"history", "import", "reports/latest.json", "--history", "h.db"}, false);
  ASSERT_EQ(again.exit_code, 0) << explain(again);
  EXPECT_TRUE(has(again.out, "imported 0, already present 1, from 1 files")) << again.out;
  // The earlier check's report (not recorded then) is new; both files of it
  // are one run.
  std::vector<std::string> reports;
  for (const auto& e : fs::directory_iterator(root_ / "reports"))
    if (e.path().extension() == ".json") reports.push_back(e.path().string());
  ASSERT_EQ(reports.size(), 2u);  // <commit>.json and latest.json: the last check's
  // A bad file among good ones: named, exit 2, nothing imported at all.
  write_file_atomic(root_ / "bad.json", "{\"schema\": \"perfci.baseline/1\"}");
  auto bad = perfci({"history", "import", reports[0], "bad.json", "--history", "h.db"}, false);
  EXPECT_EQ(bad.exit_code, 2) << explain(bad);
  EXPECT_TRUE(has(bad.err_tail, "bad.json")) << bad.err_tail;
  EXPECT_EQ(history::ResultsDb::open(db).run_count(), 1);

  // perfci.json's history.database, relative to its folder, when no flag is given.
  auto config = json::parse(read_file(root_ / "perfci.json"));
  config["history"] = {{"database", "history/ci.db"}};
  write_file_atomic(root_ / "perfci.json", config.dump(2));
  auto configured = perfci({"check"});
  ASSERT_EQ(configured.exit_code, 0) << explain(configured);
  EXPECT_TRUE(has(configured.err_tail, "in " + (root_ / "history" / "ci.db").string()))
      << configured.err_tail;
  auto off = perfci({"check", "--no-history"});
  ASSERT_EQ(off.exit_code, 0) << explain(off);
  EXPECT_EQ(history::ResultsDb::open(root_ / "history" / "ci.db").run_count(), 1);
}

TEST_F(PerfciHistory, ShowAndChangesReadTheChecksAlongHistoryAndRefuseBadInput) {
  auto made = perfci({"baseline", "update"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  const std::string baseline_commit = head(root_);
  // The baseline committed, as a project keeps it: the check runs on a clean tree.
  git(root_, {"add", "baselines"});
  git(root_, {"commit", "-q", "-m", "baseline"});
  auto checked = perfci({"check", "--history", "h.db"});
  ASSERT_EQ(checked.exit_code, 0) << explain(checked);
  auto show = perfci({"history", "show", "--history", "h.db", "--json", "-"}, false);
  ASSERT_EQ(show.exit_code, 0) << explain(show);
  const json j = json::parse(show.out);
  EXPECT_EQ(j["schema"], "perfci.history/1");
  // Three benchmarks' Ir (what `show` plots unless told another metric),
  // each at the baseline's commit (the check's side A) and at HEAD (side B),
  // counted alike: no change point.
  ASSERT_EQ(j["series"].size(), 3u) << j.dump(1);
  for (const auto& series : j["series"]) {
    EXPECT_EQ(series["kind"], "callgrind");
    EXPECT_EQ(series["machine"], "");
    ASSERT_EQ(series["entries"].size(), 2u) << series.dump(1);
    EXPECT_EQ(series["entries"][0]["commit"], baseline_commit);
    EXPECT_TRUE(series["entries"][0]["baseline"].get<bool>());
    EXPECT_EQ(series["entries"][1]["commit"], head(root_));
    EXPECT_FALSE(series["entries"][1]["baseline"].get<bool>());
    EXPECT_EQ(series["entries"][0]["value"], series["entries"][1]["value"]);
    EXPECT_TRUE(series["changes"].empty());
  }
  auto changes = perfci({"history", "changes", "--history", "h.db"}, false);
  ASSERT_EQ(changes.exit_code, 0) << explain(changes);
  EXPECT_TRUE(has(changes.out, "history: no change point in 3 series")) << changes.out;

  // Bad input: each a clear error and exit 2.
  write_file_atomic(root_ / "not.db", "not a database");
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--head", "no-such-revision"}, "unknown revision 'no-such-revision'"},
      {{"--metric", "a/b/c"}, "--metric 'a/b/c'"},
      {{"--benchmark", "("}, "not a regular expression"},
      {{"--changed", "missing.json"}, "missing.json"}};
  for (const auto& [args, message] : bad) {
    std::vector<std::string> argv = {"history", "show", "--history", "h.db"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = perfci(argv, false);
    EXPECT_EQ(r.exit_code, 2) << explain(r);
    EXPECT_TRUE(has(r.err_tail, message)) << r.err_tail;
  }
  auto corrupt = perfci({"history", "changes", "--history", "not.db"}, false);
  EXPECT_EQ(corrupt.exit_code, 2) << explain(corrupt);
  EXPECT_EQ(read_file(root_ / "not.db"), "not a database");
}

TEST_F(PerfciHistory, TwoChecksAtOnceLoseNothing) {
  auto made = perfci({"baseline", "update"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  // Two real perfci check processes, started together on a database that
  // does not exist yet, each recording its run (a std::async each: the
  // processes, not the threads, share the file).
  const fs::path db = root_ / "shared.db";
  auto first = std::async(std::launch::async, [&] {
    return perfci({"check", "--history", "shared.db"});
  });
  auto second = std::async(std::launch::async, [&] {
    return perfci({"check", "--history", "shared.db"});
  });
  const SubprocessResult a = first.get(), b = second.get();
  ASSERT_EQ(a.exit_code, 0) << explain(a);
  ASSERT_EQ(b.exit_code, 0) << explain(b);
  EXPECT_TRUE(has(a.err_tail, "history: recorded run ")) << a.err_tail;
  EXPECT_TRUE(has(b.err_tail, "history: recorded run ")) << b.err_tail;
  const auto runs = history::ResultsDb::open(db).runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_NE(runs[0].record.key, runs[1].record.key);
  for (const auto& run : runs) {
    ASSERT_EQ(run.record.sides.size(), 2u);
    // Ir, allocations and bytes allocated of three benchmarks.
    EXPECT_EQ(run.record.sides[0].points.size(), 9u);
    EXPECT_EQ(run.record.sides[1].points.size(), 9u);
  }
}

TEST_F(PerfciHistory, ADatabaseThatIsNotOneFailsAfterTheReportsAreWritten) {
  auto made = perfci({"baseline", "update"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  write_file_atomic(root_ / "not.db", "{\"a\": 1}\n");
  auto checked = perfci({"check", "--history", "not.db"});
  EXPECT_EQ(checked.exit_code, 2) << explain(checked);
  EXPECT_TRUE(has(checked.err_tail, "not an SQLite database")) << checked.err_tail;
  EXPECT_TRUE(fs::exists(root_ / "reports" / "latest.json"));
  EXPECT_EQ(read_file(root_ / "not.db"), "{\"a\": 1}\n");
}

// A history_writer child whose stdout is a pipe.
struct Writer {
  pid_t pid = -1;
  int out = -1;
};

Writer spawn_writer(const fs::path& db, const std::string& prefix, int count, int points) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<std::string> args{HISTORY_WRITER, db.string(), prefix, std::to_string(count),
                                std::to_string(points)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  Writer w;
  EXPECT_EQ(posix_spawn(&w.pid, HISTORY_WRITER, &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  w.out = fds[0];
  return w;
}

// Reads "committed KEY" lines until `stop_after` of them (0: to the end).
void read_committed(int fd, std::vector<std::string>& keys, std::string& pending,
                    std::size_t stop_after) {
  char buf[4096];
  auto enough = [&] { return stop_after != 0 && keys.size() >= stop_after; };
  // One read may bring several lines: those past stop_after stay in
  // `pending` for the next call, so the caller stops at exactly stop_after.
  auto take_lines = [&] {
    for (std::size_t nl; !enough() && (nl = pending.find('\n')) != std::string::npos;) {
      const std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      if (line.rfind("committed ", 0) == 0) keys.push_back(line.substr(10));
    }
  };
  take_lines();
  while (!enough()) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return;
    pending.append(buf, static_cast<std::size_t>(n));
    take_lines();
  }
}

int wait_exit(pid_t pid) {
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  return status;
}

std::map<std::string, std::size_t> points_by_key(const fs::path& db) {
  std::map<std::string, std::size_t> out;
  for (const auto& run : history::ResultsDb::open(db).runs()) {
    std::size_t n = 0;
    for (const auto& s : run.record.sides) n += s.points.size();
    out[run.record.key] = n;
  }
  return out;
}

TEST(HistoryConcurrency, TwoProcessesWritingOneNewDatabaseLoseNothing) {
  TempDir dir("perfci-history");
  const fs::path db = dir.path() / "shared.db";
  constexpr int kRuns = 40, kPoints = 50;
  // Both start on a database that does not exist yet: creating it is raced too.
  Writer one = spawn_writer(db, "one", kRuns, kPoints);
  Writer two = spawn_writer(db, "two", kRuns, kPoints);
  std::vector<std::string> keys_one, keys_two;
  std::string pending_one, pending_two;
  read_committed(one.out, keys_one, pending_one, 0);
  read_committed(two.out, keys_two, pending_two, 0);
  ::close(one.out);
  ::close(two.out);
  const int s1 = wait_exit(one.pid), s2 = wait_exit(two.pid);
  ASSERT_TRUE(WIFEXITED(s1) && WEXITSTATUS(s1) == 0) << s1;
  ASSERT_TRUE(WIFEXITED(s2) && WEXITSTATUS(s2) == 0) << s2;
  EXPECT_EQ(keys_one.size(), static_cast<std::size_t>(kRuns));
  EXPECT_EQ(keys_two.size(), static_cast<std::size_t>(kRuns));
  auto stored = points_by_key(db);
  EXPECT_EQ(stored.size(), 2u * kRuns);
  for (const auto* keys : {&keys_one, &keys_two})
    for (const auto& k : *keys) EXPECT_EQ(stored[k], 2u * kPoints) << k;
}

TEST(HistoryConcurrency, SigkillDuringWritesLeavesEveryCommittedRun) {
  TempDir dir("perfci-history");
  const fs::path db = dir.path() / "killed.db";
  constexpr int kPoints = 400;  // big runs: most of the writer's time is inside a transaction
  std::vector<std::string> committed;
  // Killed after 1, 2, 5, 9 and 14 more committed runs: wherever it then is
  // (inside a transaction, committing, between two), nothing committed is lost.
  int round = 0;
  for (std::size_t after : {1u, 2u, 5u, 9u, 14u}) {
    Writer w = spawn_writer(db, "round" + std::to_string(round++), 100000, kPoints);
    std::vector<std::string> keys;
    std::string pending;
    read_committed(w.out, keys, pending, after);
    ASSERT_EQ(keys.size(), after) << "the writer stopped early";
    ASSERT_EQ(::kill(w.pid, SIGKILL), 0);
    read_committed(w.out, keys, pending, 0);  // lines written before the kill landed
    ::close(w.out);
    const int status = wait_exit(w.pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
    committed.insert(committed.end(), keys.begin(), keys.end());

    // It opens (open runs PRAGMA quick_check) and holds every run committed so far, whole.
    auto stored = points_by_key(db);
    for (const auto& k : committed) EXPECT_EQ(stored[k], 2u * kPoints) << k;
    for (const auto& [k, n] : stored) EXPECT_EQ(n, 2u * kPoints) << k << ": a partial run";
  }
}

}  // namespace
}  // namespace perfci
