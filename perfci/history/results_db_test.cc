// The results database on real files: created at the current schema, a run
// stored and read back whole, idempotent by key, and every file it must not
// touch (not SQLite, another program's, a newer schema, corrupt) refused and
// left byte-identical.
#include "perfci/history/results_db.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "perfci/history/schema_migrations.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::history {
namespace {

namespace fs = std::filesystem;

RunRecord sample_run(const std::string& key, int points = 3) {
  RunRecord r;
  r.key = key;
  r.command = "ab";
  r.created = "2026-01-02T03:04:05Z";
  r.branch = "main";
  r.tool_version = "0.1.0";
  r.hostname = "host";
  r.cpu_model = "Test CPU";
  r.machine = {{"hostname", "host"}, {"logical_cpus", 2}};
  r.suite = "engine";
  r.outcome = "regressed";
  r.source = "reports/x.json";
  SideRecord a{"A", "HEAD~1", std::string(40, 'a'), std::string(40, '0'), false, "p1", {}};
  SideRecord b{"B", "WORKTREE", std::string(40, 'b'), std::string(40, 'a'), true, "p1", {}};
  for (int i = 0; i < points; ++i) {
    const std::string name = "engine/bench_" + std::to_string(i);
    a.points.push_back({name, "wall", "real_time_ns", "ns", 1000.0 + i, 990.0, 1010.0, 10, false});
    b.points.push_back({name, "wall", "real_time_ns", "ns", 1100.0 + i, 1090.0, 1110.0, 10, false});
    a.points.push_back({name, "callgrind", "ir", "instructions/iteration", 5000, {}, {}, 1, true});
    b.points.push_back({name, "callgrind", "ir", "instructions/iteration", 5500, {}, {}, 1, true});
  }
  r.sides = {a, b};
  r.comparisons.push_back({"engine/bench_0", "wall", "real_time_ns", 1.1, 1.08, 1.12, 0.001,
                           "regressed", "regressed", "all"});
  r.comparisons.push_back(
      {"engine/bench_0", "callgrind", "ir", 1.1, {}, {}, {}, "regressed", "regressed", "all"});
  r.contracts.push_back({"A", "varint inlined", "ok", "3 inlined copies"});
  r.contracts.push_back({"B", "varint inlined", "broken", "1 call left"});
  return r;
}

std::string bytes(const fs::path& p) { return read_file(p); }

// A statement run on the file with SQLite itself, as another program would.
void raw_sql(const fs::path& p, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

std::int64_t raw_int(const fs::path& p, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr), SQLITE_OK);
  std::int64_t v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
  sqlite3_finalize(s);
  sqlite3_close(db);
  return v;
}

// Opening must throw, with `why` in the message, and leave the file as it was.
void expect_refused(const fs::path& p, const std::string& why) {
  const std::string before = bytes(p);
  try {
    ResultsDb::open(p);
    ADD_FAILURE() << p << " was opened";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(bytes(p), before) << p << " changed";
}

TEST(ResultsDb, TheMigrationsAreOneStepPerVersionUpToTheCurrentOne) {
  const auto& steps = migrations();
  ASSERT_FALSE(steps.empty());
  for (std::size_t i = 0; i < steps.size(); ++i)
    EXPECT_EQ(steps[i].to_version, static_cast<int>(i) + 1);
  EXPECT_EQ(steps.back().to_version, kSchemaVersion);
}

TEST(ResultsDb, ANewFileAndItsFolderAreCreatedAtTheCurrentSchema) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "deep" / "folder" / "history.db";
  {
    ResultsDb db = ResultsDb::open(p);
    EXPECT_EQ(db.path(), p);
    EXPECT_EQ(db.run_count(), 0);
  }
  ASSERT_TRUE(fs::exists(p));
  EXPECT_EQ(raw_int(p, "PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(raw_int(p, "PRAGMA application_id"), kApplicationId);
  EXPECT_EQ(raw_int(p, "SELECT count(*) FROM sqlite_master WHERE name = 'points'"), 1);
  // Opening again migrates nothing and keeps what is there.
  EXPECT_EQ(ResultsDb::open(p).run_count(), 0);
}

TEST(ResultsDb, AnEmptyFileBecomesADatabase) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "touched.db";
  write_file_atomic(p, "");
  ResultsDb::open(p);
  EXPECT_EQ(raw_int(p, "PRAGMA application_id"), kApplicationId);
}

TEST(ResultsDb, ARunRoundTripsWhole) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "h.db";
  const RunRecord in = sample_run("k1");
  std::optional<std::int64_t> id;
  {
    ResultsDb db = ResultsDb::open(p);
    id = db.add_run(in);
    ASSERT_TRUE(id);
  }
  ResultsDb db = ResultsDb::open(p);
  auto runs = db.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, *id);
  const RunRecord& out = runs[0].record;
  EXPECT_EQ(out.key, in.key);
  EXPECT_EQ(out.command, in.command);
  EXPECT_EQ(out.created, in.created);
  EXPECT_EQ(out.branch, in.branch);
  EXPECT_EQ(out.tool_version, in.tool_version);
  EXPECT_EQ(out.hostname, in.hostname);
  EXPECT_EQ(out.cpu_model, in.cpu_model);
  EXPECT_EQ(out.machine, in.machine);
  EXPECT_EQ(out.suite, in.suite);
  EXPECT_EQ(out.outcome, in.outcome);
  EXPECT_EQ(out.source, in.source);
  ASSERT_EQ(out.sides.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    const SideRecord& x = in.sides[s];
    const SideRecord& y = out.sides[s];
    EXPECT_EQ(y.label, x.label);
    EXPECT_EQ(y.revision, x.revision);
    EXPECT_EQ(y.commit, x.commit);
    EXPECT_EQ(y.parent, x.parent);
    EXPECT_EQ(y.dirty, x.dirty);
    EXPECT_EQ(y.profile, x.profile);
    ASSERT_EQ(y.points.size(), x.points.size());
    for (std::size_t i = 0; i < x.points.size(); ++i) {
      EXPECT_EQ(y.points[i].benchmark, x.points[i].benchmark);
      EXPECT_EQ(y.points[i].kind, x.points[i].kind);
      EXPECT_EQ(y.points[i].metric, x.points[i].metric);
      EXPECT_EQ(y.points[i].unit, x.points[i].unit);
      EXPECT_EQ(y.points[i].median, x.points[i].median);
      EXPECT_EQ(y.points[i].lo, x.points[i].lo);
      EXPECT_EQ(y.points[i].hi, x.points[i].hi);
      EXPECT_EQ(y.points[i].n, x.points[i].n);
      EXPECT_EQ(y.points[i].deterministic, x.points[i].deterministic);
    }
  }
  ASSERT_EQ(out.comparisons.size(), 2u);
  EXPECT_EQ(out.comparisons[0].estimate, 1.1);
  EXPECT_EQ(out.comparisons[0].lo, 1.08);
  EXPECT_EQ(out.comparisons[0].q, 0.001);
  EXPECT_EQ(out.comparisons[0].decision, "regressed");
  EXPECT_EQ(out.comparisons[0].gate, "all");
  EXPECT_FALSE(out.comparisons[1].lo);
  ASSERT_EQ(out.contracts.size(), 2u);
  EXPECT_EQ(out.contracts[1].side, "B");
  EXPECT_EQ(out.contracts[1].status, "broken");
  EXPECT_EQ(out.contracts[1].message, "1 call left");
}

TEST(ResultsDb, PointsAreSelectedByProfileKindMetricBenchmarkAndCommit) {
  TempDir dir("perfci-history");
  ResultsDb db = ResultsDb::open(dir.path() / "h.db");
  db.add_run(sample_run("k1"));
  RunRecord other = sample_run("k2");
  for (auto& s : other.sides) s.profile = "p2";
  db.add_run(other);

  EXPECT_EQ(db.points({}).size(), 2u * 2 * 3 * 2);
  PointQuery q;
  q.profile = "p1";
  q.kind = "callgrind";
  q.metric = "ir";
  auto ir = db.points(q);
  ASSERT_EQ(ir.size(), 2u * 3);
  EXPECT_EQ(ir[0].command, "ab");
  EXPECT_EQ(ir[0].side, "A");
  EXPECT_EQ(ir[0].commit, std::string(40, 'a'));
  EXPECT_EQ(ir[0].profile, "p1");
  EXPECT_TRUE(ir[0].point.deterministic);
  q.benchmark_regex = "_2$";
  q.commits = {std::string(40, 'b')};
  auto one = db.points(q);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].point.benchmark, "engine/bench_2");
  EXPECT_EQ(one[0].point.median, 5500);
  EXPECT_TRUE(one[0].dirty);
  q.benchmark_regex = "(";
  EXPECT_THROW(db.points(q), Error);
}

TEST(ResultsDb, TheSameKeyIsStoredOnce) {
  TempDir dir("perfci-history");
  ResultsDb db = ResultsDb::open(dir.path() / "h.db");
  EXPECT_TRUE(db.add_run(sample_run("same")));
  EXPECT_FALSE(db.add_run(sample_run("same")));
  EXPECT_EQ(db.run_count(), 1);
  EXPECT_EQ(db.points({}).size(), 2u * 3 * 2);
  // Runs without a key are never taken for each other.
  EXPECT_TRUE(db.add_run(sample_run("")));
  EXPECT_TRUE(db.add_run(sample_run("")));
  EXPECT_EQ(db.run_count(), 3);
}

TEST(ResultsDb, AcceptedRegressionsAreMarkedAtTheirRunsSideB) {
  TempDir dir("perfci-history");
  ResultsDb db = ResultsDb::open(dir.path() / "h.db");
  RunRecord r = sample_run("accepting");
  r.comparisons[1].gate = "accepted";
  r.comparisons[1].outcome = "accepted";
  ASSERT_TRUE(db.add_run(sample_run("plain")));
  ASSERT_TRUE(db.add_run(r));
  const auto marks = db.accepted_marks();
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].commit, std::string(40, 'b'));
  EXPECT_EQ(marks[0].benchmark, "engine/bench_0");
  EXPECT_EQ(marks[0].kind, "callgrind");
  EXPECT_EQ(marks[0].metric, "ir");
}

TEST(ResultsDb, ARunThatCannotBeStoredLeavesNothing) {
  TempDir dir("perfci-history");
  ResultsDb db = ResultsDb::open(dir.path() / "h.db");
  RunRecord bad = sample_run("bad");
  bad.sides[1].points.back().median = std::nan("");
  EXPECT_THROW(db.add_run(bad), Error);
  RunRecord twice = sample_run("twice");
  twice.sides[1].label = "A";  // two sides A: refused by the schema, after the first side's rows
  EXPECT_THROW(db.add_run(twice), Error);
  EXPECT_EQ(db.run_count(), 0);
  EXPECT_TRUE(db.points({}).empty());
  EXPECT_TRUE(db.add_run(sample_run("twice")));
}

TEST(ResultsDb, AFileThatIsNotSqliteIsRefusedUntouched) {
  TempDir dir("perfci-history");
  const fs::path json = dir.path() / "report.json";
  write_file_atomic(json, R"({"schema": "perfci.report/1"})"
                          "\n");
  expect_refused(json, "not an SQLite database");
  const fs::path noise = dir.path() / "noise.db";
  std::string random;
  std::uint32_t x = 12345;
  for (int i = 0; i < 8192; ++i) {
    x = x * 1664525 + 1013904223;
    random.push_back(static_cast<char>(x >> 24));
  }
  write_file_atomic(noise, random);
  expect_refused(noise, "not an SQLite database");
  const fs::path tiny = dir.path() / "tiny.db";
  write_file_atomic(tiny, "SQLite");
  expect_refused(tiny, "not an SQLite database");
  EXPECT_THROW(ResultsDb::open(dir.path()), Error);  // a folder
}

TEST(ResultsDb, AnotherProgramsSqliteFileIsRefusedUntouched) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "other.db";
  raw_sql(p, "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  expect_refused(p, "another program");
  const fs::path q = dir.path() / "other-id.db";
  raw_sql(q, "PRAGMA application_id = 42; CREATE TABLE t (x);");
  expect_refused(q, "application_id 0x2a");
}

TEST(ResultsDb, ANewerSchemaIsRefusedUntouched) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "h.db";
  ResultsDb::open(p).add_run(sample_run("k"));
  raw_sql(p, "PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
  expect_refused(p, "newer than this perfci");
}

TEST(ResultsDb, ACorruptDatabaseIsRefusedAndNeverWritten) {
  TempDir dir("perfci-history");
  const fs::path p = dir.path() / "h.db";
  {
    ResultsDb db = ResultsDb::open(p);
    for (int i = 0; i < 40; ++i) db.add_run(sample_run("k" + std::to_string(i), 20));
  }
  // Closed: the last connection checkpointed the WAL into the file.
  const auto page = static_cast<std::size_t>(raw_int(p, "PRAGMA page_size"));
  std::string content = bytes(p);
  ASSERT_GT(content.size(), 12 * page);
  // Pages in the middle overwritten, as a bad disk or a stray write would.
  for (std::size_t i = 4 * page; i < 8 * page; ++i) content[i] = static_cast<char>(0xA5 ^ i);
  {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << content;
  }
  expect_refused(p, "corrupt");
}

}  // namespace
}  // namespace perfci::history
