// Window functions against the real SQLite: a table of queries (every
// function, every frame kind and bound, EXCLUDE, FILTER, named windows,
// windows over aggregates, in views, subqueries and compounds, and the
// errors), each run on both and compared row for row, with column names,
// value types and error messages. Every query orders its output, or has one
// row, so the comparison is exact.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/statement.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

constexpr const char* kSchema[] = {
    "CREATE TABLE t(a, b, c)",
    "INSERT INTO t VALUES (1, 2, 'x'), (1, 3, 'y'), (2, 2, 'z'), (NULL, 5, 'w'), (2, NULL, 'v'),"
    " (3, 1.5, 'X'), (3, 2.5, 'Y'), (1, 2, 'x2'), (4, '7', 'q')",
    "CREATE TABLE u(k INTEGER PRIMARY KEY, g TEXT, v REAL)",
    "INSERT INTO u VALUES (1, 'a', 1.5), (2, 'a', 2.25), (3, 'b', NULL), (4, 'b', -1),"
    " (5, 'c', 0.1), (6, 'a', 0.2), (7, 'b', 0.3), (8, 'c', 4), (9, 'd', 1)",
    "CREATE VIEW ranked AS SELECT k, g, rank() OVER (PARTITION BY g ORDER BY v DESC) AS r FROM u",
};

std::string Real(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// Column names, then one line per row of typed values, or "error: ...".
std::string RunEngine(Database* db, const std::string& sql) {
  auto st = db->Prepare(sql);
  if (!st.ok()) return "error: " + std::string(st.status().message());
  Statement& s = **st;
  std::string out;
  for (int c = 0; c < s.column_count(); ++c) out += s.column_name(c) + "|";
  for (;;) {
    auto r = s.Step();
    if (!r.ok()) return "error: " + std::string(r.status().message());
    if (!*r) break;
    out += "\n";
    for (int c = 0; c < s.column_count(); ++c) {
      const Value& v = s.column_value(c);
      switch (v.type()) {
        case ValueType::kNull:
          out += "n|";
          break;
        case ValueType::kInteger:
          out += "i" + std::to_string(v.as_int()) + "|";
          break;
        case ValueType::kReal:
          out += "r" + Real(v.as_real()) + "|";
          break;
        default:
          out += "t" + std::string(v.as_text()) + "|";
          break;
      }
    }
  }
  return out;
}

std::string RunSqlite(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    return "error: " + std::string(sqlite3_errmsg(db));
  }
  std::string out;
  for (int c = 0; c < sqlite3_column_count(st); ++c) {
    out += std::string(sqlite3_column_name(st, c)) + "|";
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    out += "\n";
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      switch (sqlite3_column_type(st, c)) {
        case SQLITE_NULL:
          out += "n|";
          break;
        case SQLITE_INTEGER:
          out += "i" + std::to_string(sqlite3_column_int64(st, c)) + "|";
          break;
        case SQLITE_FLOAT:
          out += "r" + Real(sqlite3_column_double(st, c)) + "|";
          break;
        default:
          out += "t" +
                 std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c)),
                             static_cast<size_t>(sqlite3_column_bytes(st, c))) +
                 "|";
          break;
      }
    }
  }
  if (rc != SQLITE_DONE) out = "error: " + std::string(sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return out;
}

class WindowRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("w.db"));
    ASSERT_TRUE(db.ok());
    engine_ = std::move(*db);
    ASSERT_EQ(sqlite3_open(":memory:", &sqlite_), SQLITE_OK);
    for (const char* sql : kSchema) {
      ASSERT_TRUE(engine_->Exec(sql).ok()) << sql;
      ASSERT_EQ(sqlite3_exec(sqlite_, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sql;
    }
  }
  void TearDown() override { sqlite3_close(sqlite_); }

  void Check(const std::string& sql) {
    EXPECT_EQ(RunEngine(engine_.get(), sql), RunSqlite(sqlite_, sql)) << sql;
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> engine_;
  sqlite3* sqlite_ = nullptr;
};

TEST_F(WindowRunTest, RankingFunctions) {
  for (
      const char* q : {
          "SELECT k, row_number() OVER (ORDER BY k DESC) FROM u ORDER BY k",
          "SELECT k, g, rank() OVER (ORDER BY g), dense_rank() OVER (ORDER BY g) FROM u ORDER BY k",
          "SELECT k, percent_rank() OVER (PARTITION BY g ORDER BY v), cume_dist() OVER "
          "(PARTITION BY g ORDER BY v) FROM u ORDER BY k",
          "SELECT k, rank() OVER (), percent_rank() OVER (), cume_dist() OVER () FROM u ORDER BY k",
          "SELECT k, ntile(2) OVER (ORDER BY k), ntile(4) OVER (ORDER BY k), ntile(20) OVER "
          "(ORDER BY k), ntile('3') OVER (ORDER BY k), ntile(2.7) OVER (ORDER BY k) FROM u "
          "ORDER BY k",
          "SELECT k, ntile(2) OVER (PARTITION BY g ORDER BY k) FROM u ORDER BY k",
          "SELECT k, row_number(*) OVER (ORDER BY k), rank(*) OVER () FROM u ORDER BY k",
      }) {
    Check(q);
  }
}

TEST_F(WindowRunTest, ValueFunctions) {
  for (const char* q : {
           "SELECT k, lag(v) OVER (ORDER BY k), lead(v) OVER (ORDER BY k) FROM u ORDER BY k",
           "SELECT k, lag(g, 2, 'none') OVER (ORDER BY k), lead(g, 3, k) OVER (ORDER BY k) "
           "FROM u ORDER BY k",
           "SELECT k, lag(k, -1) OVER (ORDER BY k), lead(k, 0) OVER (ORDER BY k), lag(k, NULL) "
           "OVER (ORDER BY k), lag(k, 'x') OVER (ORDER BY k) FROM u ORDER BY k",
           "SELECT k, lag(k, -0.5, 'd') OVER (ORDER BY k), lead(k, 1.0) OVER (ORDER BY k), "
           "lag(k, NULL, -1) OVER (ORDER BY k), lead(k, '1.5', 0) OVER (ORDER BY k), lead(k, '2') "
           "OVER (ORDER BY k) FROM u ORDER BY k",
           "SELECT k, lag(k, 9223372036854775807) OVER (ORDER BY k), lead(k, "
           "-9223372036854775808) OVER (ORDER BY k) FROM u ORDER BY k",
           "SELECT k, first_value(v) OVER w, last_value(v) OVER w, nth_value(v, 2) OVER w, "
           "nth_value(v, 2.0) OVER w FROM u WINDOW w AS (PARTITION BY g ORDER BY k) ORDER BY k",
           "SELECT k, first_value(k) OVER w, last_value(k) OVER w, nth_value(k, 3) OVER w FROM u "
           "WINDOW w AS (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING) ORDER BY k",
           "SELECT k, first_value(k) OVER w, last_value(k) OVER w, nth_value(k, 2) OVER w FROM u "
           "WINDOW w AS (ORDER BY g GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING EXCLUDE CURRENT "
           "ROW) ORDER BY k",
       }) {
    Check(q);
  }
}

TEST_F(WindowRunTest, AggregatesOverEveryFrame) {
  const char* kAggs[] = {"count(*)", "count(v)", "sum(v)", "total(v)",
                         "avg(v)",   "min(v)",   "max(v)", "group_concat(k, '.')"};
  const char* kFrames[] = {
      "",
      "ORDER BY k",
      "ORDER BY g",
      "PARTITION BY g ORDER BY k",
      "ORDER BY k ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING",
      "ORDER BY k ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING",
      "ORDER BY k ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING",
      "ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
      "ORDER BY k ROWS 2 PRECEDING",
      "ORDER BY v RANGE BETWEEN 0.5 PRECEDING AND 1 FOLLOWING",
      "ORDER BY v DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW",
      "ORDER BY v NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND 0.25 PRECEDING",
      "ORDER BY g GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
      "ORDER BY g GROUPS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING",
      "ORDER BY g RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE TIES",
      "ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP",
      "ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW",
      "ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE NO OTHERS",
  };
  for (const char* agg : kAggs) {
    for (const char* frame : kFrames) {
      Check(std::string("SELECT k, ") + agg + " OVER (" + frame + ") FROM u ORDER BY k");
    }
  }
}

TEST_F(WindowRunTest, FilterNamedWindowsAndPlacement) {
  for (const char* q : {
           "SELECT k, count(*) FILTER (WHERE v > 0) OVER (ORDER BY k), sum(k) FILTER (WHERE g "
           "<> 'a') OVER (PARTITION BY g) FROM u ORDER BY k",
           // SQLite 3.40 skips the FILTER of min()/max() over a moving frame start.
           "SELECT k, min(k) FILTER (WHERE k > 4) OVER (ORDER BY k ROWS 1 PRECEDING), max(k) "
           "FILTER (WHERE k < 4) OVER (ORDER BY k) FROM u ORDER BY k",
           "SELECT sum(k) FILTER (WHERE g = 'a'), count(*) FILTER (WHERE v IS NULL), "
           "count(DISTINCT g) FILTER (WHERE k > 2) FROM u",
           "SELECT k, sum(k) OVER w, max(k) OVER (w ROWS CURRENT ROW) FROM u "
           "WINDOW w AS (PARTITION BY g ORDER BY k) ORDER BY k",
           "SELECT k, sum(k) OVER w2 FROM u WINDOW w1 AS (PARTITION BY g), "
           "w2 AS (w1 ORDER BY k DESC) ORDER BY k",
           "SELECT g, count(*), sum(count(*)) OVER (ORDER BY g), rank() OVER (ORDER BY count(*) "
           "DESC, g) FROM u GROUP BY g HAVING count(*) > 1 ORDER BY g",
           "SELECT DISTINCT g, count(*) OVER (PARTITION BY g) FROM u ORDER BY 1",
           "SELECT k, row_number() OVER (ORDER BY v DESC) AS r FROM u ORDER BY r LIMIT 3 OFFSET 2",
           "SELECT k FROM u ORDER BY row_number() OVER (ORDER BY g DESC, k)",
           "SELECT * FROM ranked WHERE r = 1 ORDER BY g",
           "SELECT * FROM (SELECT k, sum(k) OVER (ORDER BY k) AS s FROM u) WHERE s > 10 ORDER BY k",
           "SELECT k, (SELECT sum(k) OVER ()) FROM u ORDER BY k",
           "SELECT a, a IN (SELECT k FROM u WHERE k = t.b), row_number() OVER (ORDER BY c) "
           "FROM t ORDER BY c",
           // Correlated, and a window stage that reads no column at all.
           "SELECT a, (SELECT count(*) OVER () FROM u WHERE k = t.a) FROM t ORDER BY a, c",
           "SELECT a, row_number() OVER (ORDER BY c) FROM t UNION ALL SELECT k, rank() OVER "
           "(ORDER BY g) FROM u ORDER BY 1, 2",
           "SELECT A, B AS x, row_number() OVER (ORDER BY c) FROM t ORDER BY 3",
           "SELECT *, rank() OVER (ORDER BY a) FROM t ORDER BY c",
           "SELECT c, sum(b) OVER (ORDER BY c RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t "
           "ORDER BY c",
           "SELECT count(*) OVER () FROM u WHERE 0",
           "SELECT ntile(0) OVER () FROM u LIMIT 0",
       }) {
    Check(q);
  }
}

TEST_F(WindowRunTest, Errors) {
  for (const char* q : {
           "SELECT k FROM u WHERE row_number() OVER () > 1",
           "SELECT k FROM u GROUP BY row_number() OVER ()",
           "SELECT g FROM u GROUP BY g HAVING sum(k) OVER () > 1",
           "SELECT sum(k) OVER w FROM u",
           "SELECT abs(k) OVER () FROM u",
           "SELECT nosuch(k) OVER () FROM u",
           "SELECT min(k, v) OVER () FROM u",
           "SELECT min() OVER () FROM u",
           "SELECT abs() OVER () FROM u",
           "SELECT abs(*) OVER () FROM u",
           "SELECT count(k, v) OVER () FROM u",
           "SELECT total() OVER () FROM u",
           "SELECT ntile(*) OVER () FROM u",
           "SELECT count(DISTINCT k) OVER () FROM u",
           "SELECT row_number(1) OVER () FROM u",
           "SELECT lag() OVER () FROM u",
           "SELECT sum(k, v) OVER () FROM u",
           "SELECT ntile(0) OVER () FROM u",
           "SELECT nth_value(k, 0) OVER () FROM u",
           "SELECT nth_value(k, 'x') OVER () FROM u",
           "SELECT sum(k) OVER (ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM u",
           "SELECT sum(k) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1.5 FOLLOWING) FROM u",
           "SELECT sum(k) OVER (ORDER BY k RANGE BETWEEN 'a' PRECEDING AND CURRENT ROW) FROM u",
           "SELECT sum(k) OVER (ORDER BY k, v RANGE 1 PRECEDING) FROM u",
           "SELECT sum(k) OVER (RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM u",
           "SELECT sum(k) OVER (ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM u",
           "SELECT sum(k) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM u",
           "SELECT sum(k) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM u",
           "SELECT row_number() FILTER (WHERE k > 1) OVER () FROM u",
           "SELECT abs(k) FILTER (WHERE k > 1) FROM u",
           "SELECT sum(k) OVER (w ORDER BY v) FROM u WINDOW w AS (ORDER BY k)",
           "SELECT sum(k) OVER (w PARTITION BY v) FROM u WINDOW w AS (ORDER BY k)",
           "SELECT sum(k) OVER (w) FROM u WINDOW w AS (ROWS CURRENT ROW)",
           "SELECT sum(k) OVER (x ORDER BY k) FROM u",
           "SELECT sum(sum(k) OVER ()) OVER () FROM u",
           "SELECT sum(k) OVER (PARTITION BY sum(k) OVER ()) FROM u",
           // Offsets that are not constants are NULL to SQLite (then an error).
           "SELECT sum(k) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM u",
           "SELECT sum(k) OVER (ORDER BY k ROWS abs(-1) PRECEDING) FROM u",
           "SELECT sum(k) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FILTER "
           "(WHERE 1) FROM u",
           "SELECT row_number() OVER w FROM u WINDOW w AS (ORDER BY count(*))",
           // A frame no function reads is not evaluated: no offset error.
           "SELECT k, ntile(2) OVER (ORDER BY k ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) "
           "FROM u ORDER BY k",
       }) {
    Check(q);
  }
}

// A prepared window query gives the same rows on every execution.
TEST_F(WindowRunTest, ReExecution) {
  auto st = engine_->Prepare(
      "SELECT k, sum(k) OVER (ORDER BY k ROWS 1 PRECEDING) FROM u WHERE k > ? ORDER BY k");
  ASSERT_TRUE(st.ok());
  for (int64_t lo : {0, 3, 0, 8}) {
    ASSERT_TRUE((*st)->Reset().ok());
    ASSERT_TRUE((*st)->BindInt(1, lo).ok());
    int64_t prev = -1, rows = 0;
    for (;;) {
      auto r = (*st)->Step();
      ASSERT_TRUE(r.ok());
      if (!*r) break;
      const int64_t k = (*st)->column_int(0);
      EXPECT_EQ((*st)->column_int(1), k + (prev < 0 ? 0 : prev));
      prev = k;
      ++rows;
    }
    EXPECT_EQ(rows, 9 - lo);
  }
}

}  // namespace
}  // namespace engine
