// Statement-level atomicity, checked against the real SQLite: a statement
// that fails midway (a UNIQUE or NOT NULL violation after it has already
// written rows) leaves nothing behind, while the earlier statements of an
// explicit transaction stay and the transaction stays open. OR FAIL and OR
// ROLLBACK keep SQLite's meanings. Every script runs on the engine and on
// sqlite3, each on its own file; every statement's outcome, the transaction
// state after it and the final contents must agree, and sqlite3's
// integrity_check must pass on the engine's file.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

// "ok", or "error: <message>", then the rows, one "a|b|c" line each.
std::string RunOnEngine(Database* db, const std::string& sql) {
  auto stmt = db->Prepare(sql);
  if (!stmt.ok()) return "error: " + stmt.status().message();
  std::string out = "ok";
  if (!*stmt) return out;
  for (;;) {
    auto r = (*stmt)->Step();
    if (!r.ok()) return "error: " + r.status().message();
    if (!*r) break;
    out += "\n";
    for (int i = 0; i < (*stmt)->column_count(); ++i) {
      if (i > 0) out += "|";
      out += std::string((*stmt)->column_text(i));
    }
  }
  return out;
}

std::string RunOnSqlite(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return std::string("error: ") + sqlite3_errmsg(db);
  }
  std::string out = "ok";
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    out += "\n";
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      if (i > 0) out += "|";
      const unsigned char* t = sqlite3_column_text(stmt, i);
      if (t != nullptr) out += reinterpret_cast<const char*>(t);
    }
  }
  if (rc != SQLITE_DONE) out = std::string("error: ") + sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  return out;
}

// A multi-row VALUES list of `n` rows (k, v) with k from `first`, v long
// enough that the rows span many pages, so that a failing statement has
// split pages and allocated new ones before it fails.
std::string Rows(int first, int n, int width = 300) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ",";
    const int k = first + i;
    out += "(" + std::to_string(k) + ",'" + std::string(static_cast<size_t>(width), 'a' + k % 26) +
           std::to_string(k) + "')";
  }
  return out;
}

class StatementAtomicityTest : public ::testing::Test {
 protected:
  // Runs every statement on both databases and compares as it goes.
  void Check(const std::vector<std::string>& script, const DatabaseOptions& options = {}) {
    auto opened = Database::Open(dir_.file("engine.db"), options);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::unique_ptr<Database> engine = std::move(*opened);
    testing::SqliteDb oracle(dir_.file("sqlite.db"));
    ASSERT_TRUE(oracle.ok()) << oracle.error();
    for (const std::string& sql : script) {
      const std::string want = RunOnSqlite(oracle.raw(), sql);
      const std::string got = RunOnEngine(engine.get(), sql);
      EXPECT_EQ(got, want) << sql.substr(0, 200);
      EXPECT_EQ(engine->in_transaction(), sqlite3_get_autocommit(oracle.raw()) == 0)
          << sql.substr(0, 200);
    }
    if (engine->in_transaction()) {
      ASSERT_TRUE(engine->Exec("COMMIT").ok());
      ASSERT_TRUE(oracle.Exec("COMMIT")) << oracle.error();
    }
    engine.reset();
    // The engine's file, read by sqlite3, holds what sqlite3's own file holds.
    testing::SqliteDb reread(dir_.file("engine.db"), /*read_only=*/true);
    ASSERT_TRUE(reread.ok()) << reread.error();
    EXPECT_EQ(reread.IntegrityCheck(), "ok");
    for (const auto& table : oracle.Query("SELECT name FROM sqlite_schema WHERE type='table'")) {
      const std::string q = "SELECT rowid, * FROM " + table[0] + " ORDER BY rowid";
      EXPECT_EQ(reread.Query(q), oracle.Query(q)) << table[0];
    }
    EXPECT_EQ(reread.Query("SELECT type, name, sql FROM sqlite_schema ORDER BY name"),
              oracle.Query("SELECT type, name, sql FROM sqlite_schema ORDER BY name"));
  }

  testing::TempDir dir_;
};

const char* kSchema = "CREATE TABLE t(k INTEGER UNIQUE, v TEXT NOT NULL)";

TEST_F(StatementAtomicityTest, UniqueFailureMidMultiRowInsertInsideBegin) {
  Check({kSchema, "INSERT INTO t VALUES " + Rows(1, 40), "BEGIN",
         "INSERT INTO t VALUES " + Rows(100, 30),
         // 150 new rows (page splits, new pages), then a duplicate of k=5.
         "INSERT INTO t VALUES " + Rows(200, 150) + "," + Rows(5, 1) + "," + Rows(400, 3),
         "SELECT count(*), min(k), max(k) FROM t", "INSERT INTO t VALUES " + Rows(500, 2),
         "SELECT k FROM t WHERE k >= 100 ORDER BY k", "COMMIT",
         "SELECT count(*), sum(k), sum(length(v)) FROM t"});
}

TEST_F(StatementAtomicityTest, InsertSelectFailingLateInsideBegin) {
  Check({kSchema, "CREATE TABLE src(k, v)",
         "INSERT INTO src VALUES " + Rows(1000, 200) + "," + Rows(3, 1),
         "INSERT INTO t VALUES " + Rows(1, 10), "BEGIN", "DELETE FROM t WHERE k = 7",
         "INSERT INTO t SELECT k, v FROM src ORDER BY rowid", "SELECT count(*) FROM t", "COMMIT"});
}

TEST_F(StatementAtomicityTest, UpdateHittingUniqueMidway) {
  Check({kSchema, "CREATE INDEX tv ON t(v)", "INSERT INTO t VALUES " + Rows(1, 120), "BEGIN",
         "UPDATE t SET v = 'first' WHERE k = 1",
         // Rows 2..59 are rewritten (longer, so pages split) before k=60
         // would become 120, which row 120 still holds.
         "UPDATE t SET k = CASE WHEN k = 60 THEN 120 ELSE k + 1000 END, v = v || v WHERE k > 1",
         "SELECT k, length(v) FROM t WHERE k < 5 OR k > 1000 ORDER BY k",
         "UPDATE t SET v = 'second' WHERE k = 2", "COMMIT",
         "SELECT k, v FROM t WHERE k <= 3 ORDER BY k", "SELECT count(*), sum(length(v)) FROM t"});
}

TEST_F(StatementAtomicityTest, NotNullFailureMidway) {
  Check({kSchema, "INSERT INTO t VALUES " + Rows(1, 50), "BEGIN",
         "INSERT INTO t VALUES " + Rows(60, 5),
         "INSERT INTO t VALUES " + Rows(100, 80) + ",(999, NULL)",
         "UPDATE t SET v = CASE WHEN k = 40 THEN NULL ELSE v || 'x' END",
         "DELETE FROM t WHERE k = 61", "SELECT count(*), sum(length(v)) FROM t", "COMMIT"});
}

// One-row statements (a VALUES row, an UPDATE or DELETE by rowid) run
// without a statement journal, as in sqlite3: every constraint is checked
// before the first write, so a failure leaves the transaction and the
// statements before it as they were.
TEST_F(StatementAtomicityTest, OneRowStatementsFailingInsideBegin) {
  Check(
      {"CREATE TABLE p(id INTEGER PRIMARY KEY, k INTEGER UNIQUE, v TEXT NOT NULL CHECK(v <> 'x'))",
       "CREATE INDEX pv ON p(v)",
       "INSERT INTO p(k, v) VALUES " + Rows(1, 40),
       "BEGIN",
       "INSERT INTO p VALUES (100, 100, 'a')",
       "INSERT INTO p VALUES (101, 5, 'dup k')",
       "INSERT INTO p VALUES (100, 102, 'dup rowid')",
       "INSERT INTO p VALUES (103, 103, NULL)",
       "INSERT INTO p VALUES (104, 104, 'x')",
       "UPDATE p SET k = 6 WHERE id = 100",
       "UPDATE p SET v = NULL WHERE id = 3",
       "UPDATE p SET id = 4 WHERE id = 3",
       "UPDATE p SET v = 'x' WHERE id = 2",
       "UPDATE p SET v = v || 'y', k = 200 WHERE id = 2",
       "DELETE FROM p WHERE id = 7",
       "INSERT INTO p DEFAULT VALUES",
       "UPDATE OR IGNORE p SET k = 8 WHERE id = 9",
       "INSERT OR FAIL INTO p VALUES (105, 8, 'f')",
       "SELECT id, k, v FROM p WHERE id >= 100 OR id < 10 ORDER BY id",
       "COMMIT",
       "SELECT count(*), sum(k), sum(length(v)) FROM p"});
}

// Statements no constraint can stop (a DELETE; an UPDATE of columns with no
// NOT NULL, CHECK or index, by values that cannot fail) also run without a
// statement journal; ROLLBACK still undoes them, and a statement failing
// after them leaves them in place.
TEST_F(StatementAtomicityTest, UnconstrainedManyRowStatementsInsideBegin) {
  Check({"CREATE TABLE u(id INTEGER PRIMARY KEY, k INTEGER UNIQUE, v TEXT, w INTEGER NOT NULL)",
         "INSERT INTO u(k, v, w) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 4), "
         "(5, 'e', 5)",
         "INSERT INTO u(k, v, w) SELECT k + 10, v, k FROM u", "BEGIN",
         "UPDATE u SET v = v || '" + std::string(500, 'x') + "' WHERE k > 2",
         "DELETE FROM u WHERE k % 2 = 0", "UPDATE u SET w = NULL WHERE k > 10",
         "UPDATE u SET v = -k * 2.5 WHERE id > 1", "SELECT id, k, length(v), w FROM u ORDER BY id",
         "ROLLBACK", "SELECT count(*), sum(length(v)) FROM u", "BEGIN", "DELETE FROM u WHERE k < 4",
         "UPDATE u SET v = NULL, w = w + 1 WHERE k > 12",
         "INSERT INTO u VALUES (100, 15, 'dup', 0)", "SELECT id, k, v, w FROM u ORDER BY id",
         "COMMIT"});
}

TEST_F(StatementAtomicityTest, AutocommitStatementsStayAtomic) {
  Check({kSchema, "INSERT INTO t VALUES " + Rows(1, 30),
         "INSERT INTO t VALUES " + Rows(100, 150) + "," + Rows(7, 1),
         "UPDATE t SET k = CASE WHEN k = 20 THEN 30 ELSE k + 500 END, v = v || v",
         "INSERT INTO t VALUES " + Rows(200, 100) + ",(999, NULL)",
         "SELECT count(*), sum(k), sum(length(v)) FROM t"});
}

TEST_F(StatementAtomicityTest, OrFailKeepsEarlierRowsOrRollbackEndsTransaction) {
  Check({kSchema, "INSERT INTO t VALUES " + Rows(1, 10),
         "INSERT OR FAIL INTO t VALUES " + Rows(20, 40) + "," + Rows(3, 1) + "," + Rows(90, 2),
         "BEGIN", "INSERT OR FAIL INTO t VALUES " + Rows(100, 40) + "," + Rows(4, 1),
         "UPDATE OR FAIL t SET k = k + 1 WHERE k >= 100", "SELECT count(*), max(k) FROM t",
         "INSERT INTO t VALUES " + Rows(300, 2),
         "INSERT OR ROLLBACK INTO t VALUES " + Rows(400, 20) + "," + Rows(1, 1),
         "SELECT count(*), max(k) FROM t", "COMMIT"});
}

TEST_F(StatementAtomicityTest, FailedDdlInsideBegin) {
  Check({"CREATE TABLE d(a, b)", "INSERT INTO d VALUES (1, 'x'), (2, 'y'), (1, 'z')", "BEGIN",
         "CREATE TABLE e(a)", "INSERT INTO e VALUES (1)", "CREATE UNIQUE INDEX da ON d(a)",
         "CREATE TABLE e(b)", "INSERT INTO e VALUES (2)",
         "SELECT name FROM sqlite_schema ORDER BY name", "COMMIT", "SELECT * FROM e"});
}

TEST_F(StatementAtomicityTest, LargeStatementSpillsCacheAndJournal) {
  // A 16-page cache makes the pager write pages out mid-statement, and a
  // statement rewriting ~2 MB passes the statement journal's memory bound.
  DatabaseOptions small;
  small.cache_pages = 16;
  std::vector<std::string> script = {kSchema, "BEGIN"};
  for (int i = 0; i < 10; ++i)
    script.push_back("INSERT INTO t VALUES " + Rows(1 + 100 * i, 100, 1500));
  script.push_back("COMMIT");
  script.push_back("BEGIN");
  script.push_back("DELETE FROM t WHERE k % 10 = 0");
  script.push_back("UPDATE t SET v = v || v, k = CASE WHEN k = 995 THEN 1 ELSE k END");
  script.push_back("SELECT count(*), sum(length(v)) FROM t");
  script.push_back("INSERT INTO t VALUES " + Rows(5000, 20, 5000) + "," + Rows(5, 1));
  script.push_back("INSERT INTO t VALUES " + Rows(6000, 5, 2000));
  script.push_back("COMMIT");
  script.push_back("SELECT count(*), sum(k), sum(length(v)) FROM t");
  Check(script, small);
}

TEST_F(StatementAtomicityTest, SuccessfulStatementsInsideBeginThenRollback) {
  Check({kSchema, "INSERT INTO t VALUES " + Rows(1, 20), "BEGIN",
         "INSERT INTO t VALUES " + Rows(100, 50),
         "INSERT INTO t VALUES " + Rows(200, 50) + "," + Rows(1, 1),
         "UPDATE t SET v = 'u' WHERE k < 10", "ROLLBACK",
         "SELECT count(*), sum(length(v)) FROM t"});
}

}  // namespace
}  // namespace engine
