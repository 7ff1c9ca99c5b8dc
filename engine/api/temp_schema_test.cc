// The temp database: TEMP tables, views, indexes and triggers live in the
// connection's own in-memory database, never in the file; names without a
// qualifier find temp's objects first; "temp." and "main." pick one; a
// transaction commits or rolls back both; the file stays what sqlite3 reads
// (the real sqlite3 is asked). Diffs of whole scripts against sqlite3 are in
// engine/shell/shell_test.cc (TempSchemaMatchesSqlite3).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/query_text.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using Rows = std::vector<std::string>;
using testing::QueryText;

std::unique_ptr<Database> OpenDb(const std::string& path) {
  auto db = Database::Open(path);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(*db) : nullptr;
}

void Exec(Database& db, const std::string& sql) {
  Status st = db.Exec(sql);
  ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
}

std::string ErrorOf(Database& db, const std::string& sql) {
  Status st = db.Exec(sql);
  return st.ok() ? "ok" : st.message();
}

// What the real sqlite3 reads from the file: sqlite_schema's names.
Rows SqliteSchemaNames(const std::string& path) {
  sqlite3* db = nullptr;
  Rows out;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(
      sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema ORDER BY name", -1, &st, nullptr),
      SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

class TempSchemaTest : public ::testing::Test {
 protected:
  std::string File() const { return dir_.path() + "/t.db"; }
  engine::testing::TempDir dir_;
};

TEST_F(TempSchemaTest, TempObjectsNeverReachTheFileAndVanishOnClose) {
  {
    auto db = OpenDb(File());
    Exec(*db, "CREATE TABLE t(a); INSERT INTO t VALUES (1);");
    Exec(*db, "CREATE TEMP TABLE t(b); INSERT INTO t VALUES (2);");
    Exec(*db, "CREATE INDEX ti ON t(b); CREATE TEMP VIEW tv AS SELECT * FROM main.t;");
    Exec(*db,
         "CREATE TEMP TRIGGER tr AFTER INSERT ON main.t BEGIN INSERT INTO t VALUES (new.a * 10); "
         "END;");
    Exec(*db, "INSERT INTO main.t VALUES (5);");
    EXPECT_EQ(QueryText(*db, "SELECT * FROM t ORDER BY 1"), (Rows{"2", "50"}));
    EXPECT_EQ(QueryText(*db, "SELECT * FROM main.t ORDER BY 1"), (Rows{"1", "5"}));
    EXPECT_EQ(QueryText(*db, "SELECT * FROM tv ORDER BY 1"), (Rows{"1", "5"}));
    EXPECT_EQ(QueryText(*db, "SELECT type, name FROM sqlite_temp_schema ORDER BY name"),
              (Rows{"table|t", "index|ti", "trigger|tr", "view|tv"}));
    EXPECT_EQ(QueryText(*db, "SELECT name FROM sqlite_schema"), (Rows{"t"}));
    // While the connection is open, sqlite3 sees main's table only.
    EXPECT_EQ(SqliteSchemaNames(File()), (Rows{"t"}));
    EXPECT_EQ(QueryText(*db, "PRAGMA integrity_check"), (Rows{"ok"}));
    EXPECT_EQ(QueryText(*db, "PRAGMA temp.integrity_check"), (Rows{"ok"}));
  }
  auto db = OpenDb(File());
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t ORDER BY 1"), (Rows{"1", "5"}));
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM sqlite_temp_master"), (Rows{"0"}));
  EXPECT_EQ(ErrorOf(*db, "SELECT * FROM tv"), "no such table: tv");
}

TEST_F(TempSchemaTest, EachConnectionHasItsOwn) {
  auto a = OpenDb(File());
  auto b = OpenDb(File());
  Exec(*a, "CREATE TEMP TABLE x(v); INSERT INTO x VALUES ('a');");
  EXPECT_EQ(ErrorOf(*b, "SELECT * FROM x"), "no such table: x");
  Exec(*b, "CREATE TEMP TABLE x(w, z); INSERT INTO x VALUES ('b', 1);");
  EXPECT_EQ(QueryText(*a, "SELECT * FROM x"), (Rows{"a"}));
  EXPECT_EQ(QueryText(*b, "SELECT * FROM x"), (Rows{"b|1"}));
}

TEST_F(TempSchemaTest, TransactionsCoverBothDatabases) {
  auto db = OpenDb(File());
  Exec(*db, "CREATE TABLE m(a); CREATE TEMP TABLE t(b UNIQUE);");
  Exec(*db, "BEGIN; INSERT INTO m VALUES (1); INSERT INTO t VALUES (1); ROLLBACK;");
  EXPECT_EQ(QueryText(*db, "SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM t)"),
            (Rows{"0|0"}));
  // A TEMP table created, and one dropped, inside a rolled-back transaction:
  // the catalog follows temp's schema back though main's did not move.
  Exec(*db, "BEGIN; CREATE TEMP TABLE r(x); INSERT INTO r VALUES (1); ROLLBACK;");
  EXPECT_EQ(ErrorOf(*db, "SELECT * FROM r"), "no such table: r");
  Exec(*db, "BEGIN; DROP TABLE t; ROLLBACK;");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), (Rows{"0"}));
  // One statement writing both databases (main's row, temp's through a TEMP
  // trigger) that fails half-way is undone in both: inside a transaction
  // by the statement savepoints, in autocommit by the rollback of both.
  Exec(*db,
       "CREATE TEMP TRIGGER mt AFTER INSERT ON main.m BEGIN INSERT INTO t VALUES (new.a); END;");
  Exec(*db, "BEGIN; INSERT INTO m VALUES (2);");
  EXPECT_EQ(ErrorOf(*db, "INSERT INTO m VALUES (3), (2)"), "UNIQUE constraint failed: t.b");
  Exec(*db, "COMMIT;");
  EXPECT_EQ(QueryText(*db, "SELECT b FROM t"), (Rows{"2"}));
  EXPECT_EQ(QueryText(*db, "SELECT a FROM m"), (Rows{"2"}));
  EXPECT_EQ(ErrorOf(*db, "INSERT INTO m VALUES (4), (2)"), "UNIQUE constraint failed: t.b");
  EXPECT_EQ(QueryText(*db, "SELECT b FROM t"), (Rows{"2"}));
  EXPECT_EQ(QueryText(*db, "SELECT a FROM m"), (Rows{"2"}));
}

TEST_F(TempSchemaTest, APreparedStatementSeesATempTableThatShadowsItsTable) {
  auto db = OpenDb(File());
  Exec(*db, "CREATE TABLE t(a); INSERT INTO t VALUES ('main');");
  auto st = db->Prepare("SELECT * FROM t");
  ASSERT_TRUE(st.ok());
  auto step = [&] {
    auto r = (*st)->Step();
    EXPECT_TRUE(r.ok() && *r);
    std::string v((*st)->column_text(0));
    EXPECT_TRUE((*st)->Reset().ok());
    return v;
  };
  EXPECT_EQ(step(), "main");
  Exec(*db, "CREATE TEMP TABLE t(a); INSERT INTO t VALUES ('temp');");
  EXPECT_EQ(step(), "temp");   // re-planned: the name now finds temp's table
  Exec(*db, "DROP TABLE t;");  // temp's
  EXPECT_EQ(step(), "main");
}

TEST_F(TempSchemaTest, ManyRowsSpillPastTheCache) {
  auto db = OpenDb(File());
  const Rows pages_before = QueryText(*db, "PRAGMA main.page_count");
  Exec(*db, "CREATE TEMP TABLE big(k INTEGER PRIMARY KEY, v TEXT);");
  Exec(*db,
       "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000) "
       "INSERT INTO big SELECT i, printf('%0100d', i) FROM c;");
  Exec(*db, "CREATE INDEX bv ON big(v);");
  EXPECT_EQ(QueryText(*db, "SELECT count(*), sum(k) FROM big"), (Rows{"20000|200010000"}));
  EXPECT_EQ(QueryText(*db, "SELECT k FROM big WHERE v = printf('%0100d', 12345)"), (Rows{"12345"}));
  EXPECT_EQ(QueryText(*db, "PRAGMA temp.integrity_check"), (Rows{"ok"}));
  // The file did not grow for any of it; temp did.
  EXPECT_EQ(QueryText(*db, "PRAGMA main.page_count"), pages_before);
  const Rows temp_pages = QueryText(*db, "PRAGMA temp.page_count");
  ASSERT_EQ(temp_pages.size(), 1u);
  EXPECT_GT(std::stoi(temp_pages[0]), 500);
}

}  // namespace
}  // namespace engine
