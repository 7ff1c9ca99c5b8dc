// CREATE INDEX (and REINDEX) on a populated table builds the index by sorting its keys and
// loading the tree bottom-up (engine/storage/key_sorter.h, btree_bulk.cc).
// What sqlite3 must find in the file afterwards: integrity_check ok (every
// entry matches its row, in the index's order under its collations and
// directions), as many pages as its own CREATE INDEX makes, and UNIQUE
// failures where it fails — with sorted runs spilled to a temporary file
// when the keys do not fit in the cache.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::ExpectLikeSqlite;
using testing::SqliteDb;
using testing::TempDir;

// n rows made by sqlite3: a of every type (NULL, integers, reals, texts,
// blobs), b a text under NOCASE with shared prefixes and every 50th long
// enough to overflow, c a small integer with many duplicates.
void MakeTable(const std::string& path, int n) {
  SqliteDb db(path);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(
      db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT COLLATE NOCASE, c INTEGER);"
              "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
              std::to_string(n) +
              ") INSERT INTO t SELECT i,"
              " CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN i % 977 WHEN 2 THEN (i % 311) / 4.0"
              "  WHEN 3 THEN 'v' || (i % 613) ELSE CAST(printf('%x', i % 251) AS BLOB) END,"
              " CASE WHEN i % 50 = 0 THEN printf('%.3000c', 'q') ELSE"
              "  printf('%s key %d', CASE i % 3 WHEN 0 THEN 'Row' WHEN 1 THEN 'row' ELSE 'ROW' END,"
              "         (i * 7919) % 10007) END,"
              " i % 17 FROM n;"))
      << db.error();
}

// Pages of each named index, as sqlite3's dbstat counts them.
std::vector<std::vector<std::string>> IndexPages(SqliteDb& db) {
  return db.Query(
      "SELECT name, count(*) FROM dbstat WHERE name IN"
      " (SELECT name FROM sqlite_schema WHERE type = 'index') GROUP BY name ORDER BY name");
}

const char* const kIndexes =
    "CREATE INDEX ia ON t(a);"
    "CREATE INDEX ib ON t(b DESC, c);"
    "CREATE INDEX ic ON t(c, b COLLATE BINARY, a DESC);"
    "CREATE INDEX ir ON t(b COLLATE RTRIM, id);"
    "CREATE UNIQUE INDEX iu ON t(c, id);";

TEST(CreateIndexTest, IndexesOfAPopulatedTableAreSqlite3s) {
  TempDir dir;
  const std::string ours = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  MakeTable(ours, 20000);
  MakeTable(theirs, 20000);
  {
    // 16 pages of cache: a 1 MiB sort budget, so every index but the
    // smallest is sorted in runs spilled to a temporary file and merged.
    DatabaseOptions opts;
    opts.cache_pages = 16;
    auto db = Database::Open(ours, opts);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const Status st = (*db)->Exec(kIndexes);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  SqliteDb sqlite(theirs);
  ASSERT_TRUE(sqlite.Exec(kIndexes)) << sqlite.error();
  SqliteDb check(ours);
  EXPECT_EQ(check.IntegrityCheck(), "ok");
  EXPECT_EQ(IndexPages(check), IndexPages(sqlite));
  EXPECT_EQ(IndexPages(check).size(), 5u);
  // Read through each index, the rows come in sqlite3's order.
  for (const char* q : {"SELECT id FROM t INDEXED BY ib ORDER BY b DESC, c",
                        "SELECT id FROM t INDEXED BY ic WHERE c = 3 ORDER BY b COLLATE BINARY",
                        "SELECT a, id FROM t INDEXED BY ia WHERE a > 100 ORDER BY a"}) {
    EXPECT_EQ(check.Query(q), sqlite.Query(q)) << q;
  }
}

TEST(CreateIndexTest, UniqueFailuresAndEmptyTablesAsSqlite3) {
  ExpectLikeSqlite(R"(
    CREATE TABLE e(a, b);
    CREATE INDEX e1 ON e(a);
    CREATE UNIQUE INDEX e2 ON e(a, b);
    INSERT INTO e VALUES(1, 2), (1, 2);
    CREATE TABLE t(a, b TEXT COLLATE NOCASE);
    INSERT INTO t VALUES(1, 'x'), (2, NULL), (3, NULL), (NULL, 'y'), (NULL, 'Y');
    CREATE UNIQUE INDEX ua ON t(a);
    CREATE UNIQUE INDEX ub ON t(b);
    CREATE UNIQUE INDEX ubb ON t(b COLLATE BINARY);
    INSERT INTO t VALUES(1, 'z');
    BEGIN;
    INSERT INTO t VALUES(4, 'w');
    CREATE UNIQUE INDEX ua2 ON t(a, b);
    INSERT INTO t VALUES(4, 'w');
    CREATE UNIQUE INDEX ua3 ON t(a);
    INSERT INTO t VALUES(5, 'v');
    COMMIT;
    SELECT name FROM sqlite_schema ORDER BY name;
    PRAGMA integrity_check;
  )");
}

TEST(CreateIndexTest, FailedBuildLeavesTheFileAsItWas) {
  TempDir dir;
  const std::string path = dir.file("u.db");
  MakeTable(path, 20000);
  uint32_t pages_before = 0;
  {
    SqliteDb db(path);
    // c unique but for the last two rows: the sorted keys meet their
    // duplicate at the very end, after the runs were merged and the tree's
    // pages written.
    ASSERT_TRUE(db.Exec("UPDATE t SET c = id; UPDATE t SET c = 19999 WHERE id = 20000;"));
    pages_before = static_cast<uint32_t>(std::stoul(db.Query("PRAGMA page_count")[0][0]));
  }
  {
    DatabaseOptions opts;
    opts.cache_pages = 16;
    auto db = Database::Open(path, opts);
    ASSERT_TRUE(db.ok());
    const Status st = (*db)->Exec("CREATE UNIQUE INDEX uc ON t(c)");
    EXPECT_EQ(st.message(), "UNIQUE constraint failed: t.c");
  }
  SqliteDb db(path);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(db.Query("PRAGMA page_count")[0][0], std::to_string(pages_before));
  EXPECT_EQ(db.Query("SELECT count(*) FROM sqlite_schema WHERE type = 'index'")[0][0], "0");
}

TEST(CreateIndexTest, AMillionRows) {
  // The issue's bar: an index built from 1,000,000 rows passes sqlite3's
  // integrity_check (which compares each of its entries with its row).
  TempDir dir;
  const std::string path = dir.file("m.db");
  {
    SqliteDb db(path);
    ASSERT_TRUE(
        db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, b TEXT);"
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)"
                " INSERT INTO t SELECT i, printf('row %d', (i * 7919) % 1000003) FROM n;"))
        << db.error();
  }
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    const Status st = (*db)->Exec("CREATE INDEX tb ON t(b)");
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  SqliteDb db(path);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(db.Query("SELECT count(*) FROM t INDEXED BY tb WHERE b >= ''")[0][0], "1000000");
}

TEST(CreateIndexTest, ReindexAsSqlite3) {
  // Every form sqlite3 takes, and its refusals (at prepare, as sqlite3's):
  // an unqualified name is a collation first, then main's table or index.
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a, b UNIQUE);
    CREATE INDEX ta ON t(a COLLATE NOCASE);
    INSERT INTO t VALUES('X', 2), ('x', 3), ('y', 1), (NULL, NULL);
    REINDEX;
    REINDEX t;
    REINDEX ta;
    REINDEX nocase;
    REINDEX main.t;
    REINDEX main.ta;
    BEGIN;
    REINDEX;
    INSERT INTO t VALUES('Y', 4);
    COMMIT;
    REINDEX binary;
    REINDEX rtrim;
    REINDEX "t";
    SELECT a FROM t INDEXED BY ta ORDER BY a COLLATE NOCASE;
    CREATE TEMP TABLE tt(x UNIQUE);
    INSERT INTO tt VALUES(1), (2);
    REINDEX temp.tt;
    REINDEX temp.sqlite_autoindex_tt_1;
    REINDEX;
    REINDEX tt;
    REINDEX temp.t;
    REINDEX main.nocase;
    REINDEX nothere;
    REINDEX zz.t;
    CREATE VIEW v AS SELECT 1;
    REINDEX v;
    REINDEX main.v;
    PRAGMA integrity_check;
    PRAGMA temp.integrity_check;
  )");
  EXPECT_NE(out.find("error: unable to identify the object to be reindexed"), std::string::npos)
      << out;
  EXPECT_NE(out.find("error: unknown database zz"), std::string::npos) << out;
}

TEST(CreateIndexTest, ReindexRebuildsAnIndexWhoseCollationChanged) {
  // REINDEX's reason to be: an index whose order no longer matches its
  // definition (here its collation changed under it, as a redefined
  // collating sequence would do) is rebuilt from the table's rows.
  TempDir dir;
  const std::string ours = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  for (const std::string& path : {ours, theirs}) {
    SqliteDb db(path);
    ASSERT_TRUE(db.Exec(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, b TEXT);"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)"
        " INSERT INTO t SELECT i, CASE i % 2 WHEN 0 THEN 'K' ELSE 'k' END || (i * 31 % 997) FROM n;"
        "CREATE INDEX tb ON t(b);"
        "PRAGMA writable_schema = ON;"
        "UPDATE sqlite_schema SET sql = 'CREATE INDEX tb ON t(b COLLATE NOCASE)' WHERE name = 'tb';"
        "PRAGMA writable_schema = OFF;"))
        << db.error();
  }
  {
    SqliteDb db(ours);
    ASSERT_NE(db.IntegrityCheck(), "ok");  // the stale order is visible
  }
  {
    auto db = Database::Open(ours);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const Status st = (*db)->Exec("REINDEX tb");
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  SqliteDb sqlite(theirs);
  ASSERT_TRUE(sqlite.Exec("REINDEX tb")) << sqlite.error();
  SqliteDb check(ours);
  EXPECT_EQ(check.IntegrityCheck(), "ok");
  EXPECT_EQ(IndexPages(check), IndexPages(sqlite));
  ASSERT_EQ(IndexPages(check).size(), 1u);  // the comparison had a row to compare
  const char* q = "SELECT id FROM t INDEXED BY tb WHERE b = 'K62' COLLATE NOCASE ORDER BY id";
  EXPECT_EQ(check.Query(q), sqlite.Query(q));
  EXPECT_FALSE(check.Query(q).empty());
}

}  // namespace
}  // namespace engine
