// Views against the real sqlite3: PRAGMA table_info / table_xinfo of a view
// (names made unique, declared types through views and compounds), column
// lists, views over views, errors inside a view's body ("main.x"), DROP on
// the wrong kind, and writes to a view.
#include "engine/planner/view_columns.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::ExpectLikeSqlite;

TEST(UniqueColumnNamesTest, NumbersRepeatsAsSqliteDoes) {
  EXPECT_EQ(plan::UniqueColumnNames({"a", "b"}), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(plan::UniqueColumnNames({"q", "q", "Q", "q:1"}),
            (std::vector<std::string>{"q", "q:1", "Q:2", "q:3"}));
}

TEST(ViewTest, TableInfoOfViews) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL DEFAULT 1.5, d VARCHAR(5) NOT NULL);
    INSERT INTO t VALUES(1, 'x', 2.5, 'p'), (2, 'y', 3.5, 'q');
    CREATE VIEW v AS SELECT a, b, d FROM t;
    CREATE VIEW v2(x, y) AS SELECT a, b FROM t WHERE a > 1;
    CREATE VIEW v3 AS SELECT a, b FROM v UNION ALL SELECT * FROM v2;
    CREATE VIEW v4 AS SELECT x + 1, y || 'z' AS yy, y FROM v2;
    CREATE VIEW v5 AS SELECT a, b, max(c), count(*) AS n FROM t GROUP BY b;
    CREATE VIEW v6 AS SELECT s.b AS sb, s.d FROM (SELECT * FROM t) AS s;
    CREATE VIEW vc AS SELECT a q, b q, a Q, a "q:1" FROM t;
    PRAGMA table_info(v);
    PRAGMA table_info(v2);
    PRAGMA table_info(v3);
    PRAGMA table_info(v4);
    PRAGMA table_info(v5);
    PRAGMA table_info(v6);
    PRAGMA table_info(vc);
    PRAGMA table_xinfo(v2);
    SELECT * FROM vc;
    SELECT * FROM v3 ORDER BY 1, 2;
    SELECT * FROM v4;
    SELECT * FROM v5 ORDER BY b;
  )");
  EXPECT_NE(out.find("1|q:1|TEXT|0|NULL|0\n"), std::string::npos) << out;
}

TEST(ViewTest, ErrorsOfViews) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a, b);
    CREATE VIEW v AS SELECT a, b FROM t;
    CREATE VIEW u AS SELECT * FROM v;
    CREATE VIEW w AS SELECT zz FROM t;
    CREATE VIEW v5(p) AS SELECT a, b FROM t;
    SELECT * FROM w;
    PRAGMA table_info(w);
    SELECT * FROM v5;
    PRAGMA table_info(v5);
    DROP VIEW t;
    DROP TABLE v;
    DROP VIEW nosuch;
    DROP VIEW IF EXISTS nosuch;
    DROP TABLE IF EXISTS v;
    DROP VIEW IF EXISTS t;
    INSERT INTO v VALUES(1, 2);
    UPDATE v SET a = 1;
    DELETE FROM v;
    CREATE VIEW v AS SELECT 1;
    CREATE VIEW IF NOT EXISTS v AS SELECT 1;
    CREATE TABLE v(a);
    CREATE VIEW t AS SELECT 1;
    CREATE INDEX vi ON v(a);
    DROP TABLE t;
    SELECT * FROM u;
    PRAGMA table_info(u);
    SELECT * FROM v;
    DROP VIEW v;
    SELECT * FROM u;
    SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY name;
  )");
}

TEST(ViewTest, ViewsInFilesWrittenByTheOther) {
  const std::string setup = R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT UNIQUE ON CONFLICT REPLACE, c NUMERIC);
    INSERT INTO t VALUES(1, 'x', 3), (2, 'y', 4);
    CREATE VIEW v(p, q) AS SELECT a, b FROM t WHERE c > 3;
    CREATE VIEW w AS SELECT q || '!' AS bang, p FROM v UNION SELECT b, a FROM t;
    INSERT INTO t VALUES(3, 'x', 9);
  )";
  const std::string queries = R"(
    SELECT * FROM v ORDER BY p;
    SELECT * FROM w ORDER BY 1;
    PRAGMA table_info(v);
    PRAGMA table_info(w);
    SELECT type, name, sql FROM sqlite_schema ORDER BY name;
  )";
  testing::TempDir dir;
  // Written by the engine, read by both; written by sqlite3, read by both.
  const std::string by_engine = dir.file("by_engine.db");
  const std::string by_sqlite = dir.file("by_sqlite.db");
  const std::string written = testing::EngineTranscript(by_engine, setup);
  EXPECT_EQ(written, testing::SqliteTranscript(by_sqlite, setup));
  const std::string want = testing::SqliteTranscript(by_sqlite, queries);
  EXPECT_EQ(testing::SqliteTranscript(by_engine, queries), want);
  EXPECT_EQ(testing::EngineTranscript(by_sqlite, queries), want);
  EXPECT_EQ(testing::EngineTranscript(by_engine, queries), want);
}

}  // namespace
}  // namespace engine
