// Conflict resolution against the real sqlite3: constraint-level ON CONFLICT
// on PRIMARY KEY, UNIQUE and NOT NULL, the statement's OR clause that
// overrides it, REPLACE INTO, and what OR FAIL / IGNORE / ROLLBACK leave of
// a multi-row statement. Each script runs on both; every statement's rows,
// error, changes() and last_insert_rowid(), and the tables afterwards, must
// be sqlite3's.
#include <gtest/gtest.h>

#include <string>

#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::ExpectLikeSqlite;

TEST(ConflictTest, UniqueChecksRunInSqlitesOrder) {
  // sqlite3 checks the indexes last created first, and REPLACE ones last.
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a UNIQUE, b UNIQUE);
    INSERT INTO t VALUES(1, 1);
    INSERT INTO t VALUES(1, 1);
    CREATE TABLE t6(a UNIQUE, b UNIQUE ON CONFLICT REPLACE, c UNIQUE);
    INSERT INTO t6 VALUES(1, 1, 1);
    INSERT INTO t6 VALUES(2, 1, 1);
    CREATE TABLE u(a UNIQUE ON CONFLICT REPLACE, b UNIQUE, c UNIQUE ON CONFLICT REPLACE);
    INSERT INTO u VALUES(1, 1, 1), (2, 2, 2);
    INSERT INTO u VALUES(1, 2, 2);
    INSERT INTO u VALUES(1, 3, 2);
    INSERT INTO u VALUES(7, 3, 2);
    SELECT * FROM u;
    CREATE TABLE w(a, b, c);
    CREATE UNIQUE INDEX w1 ON w(a);
    CREATE UNIQUE INDEX w2 ON w(b);
    CREATE UNIQUE INDEX w3 ON w(c);
    INSERT INTO w VALUES(1, 1, 1);
    INSERT INTO w VALUES(1, 1, 1);
    INSERT OR REPLACE INTO w VALUES(1, 1, 1);
  )");
  EXPECT_NE(out.find("error: UNIQUE constraint failed: t.b\n"), std::string::npos) << out;
  EXPECT_NE(out.find("error: UNIQUE constraint failed: w.c\n"), std::string::npos) << out;
}

TEST(ConflictTest, ConstraintLevelActions) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t4(a UNIQUE ON CONFLICT IGNORE, b UNIQUE ON CONFLICT REPLACE,
                    c NOT NULL ON CONFLICT IGNORE, d NOT NULL ON CONFLICT REPLACE DEFAULT 7,
                    e NOT NULL ON CONFLICT FAIL);
    INSERT INTO t4 VALUES(1, 1, 1, 1, 1);
    INSERT INTO t4 VALUES(1, 2, 1, 1, 1);
    INSERT INTO t4 VALUES(2, 1, 1, 1, 1);
    INSERT INTO t4 VALUES(3, 3, NULL, 1, 1);
    INSERT INTO t4 VALUES(4, 4, 1, NULL, 1);
    INSERT INTO t4 VALUES(5, 5, 1, 1, NULL), (6, 6, 1, 1, 1);
    INSERT OR ABORT INTO t4 VALUES(1, 9, 9, 9, 9);
    INSERT OR REPLACE INTO t4 VALUES(1, 9, NULL, 9, 9);
    SELECT * FROM t4;
    CREATE TABLE t5(a, b, PRIMARY KEY(a) ON CONFLICT IGNORE, UNIQUE(b) ON CONFLICT FAIL);
    INSERT INTO t5 VALUES(1, 1), (1, 2), (2, 2), (3, 3);
    INSERT INTO t5 SELECT 10, 10 UNION ALL SELECT 11, 3 UNION ALL SELECT 12, 12;
    SELECT * FROM t5;
  )");
}

TEST(ConflictTest, IntegerPrimaryKeyReplaceRunsAfterTheOtherChecks) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t3(a INTEGER PRIMARY KEY ON CONFLICT REPLACE, b UNIQUE);
    INSERT INTO t3 VALUES(1, 1);
    INSERT INTO t3 VALUES(1, 1);
    INSERT INTO t3 VALUES(1, 2);
    CREATE TABLE r(a INTEGER PRIMARY KEY ON CONFLICT ABORT, b UNIQUE ON CONFLICT REPLACE);
    INSERT INTO r VALUES(1, 1), (2, 2);
    INSERT INTO r VALUES(2, 1);
    INSERT INTO r VALUES(3, 1);
    INSERT OR IGNORE INTO r VALUES(3, 9), (4, 1), (4, 7);
    CREATE TABLE e(a INTEGER PRIMARY KEY ON CONFLICT IGNORE, b);
    INSERT INTO e VALUES(1, 1), (1, 2), (2, 2);
    UPDATE e SET a = 1 WHERE a = 2;
  )");
}

TEST(ConflictTest, NotNullReplaceTakesTheDefault) {
  ExpectLikeSqlite(R"(
    CREATE TABLE d(a NOT NULL DEFAULT 3, b DEFAULT 4 NOT NULL ON CONFLICT REPLACE,
                   c NOT NULL ON CONFLICT REPLACE DEFAULT NULL);
    INSERT INTO d VALUES(NULL, 1, 1);
    INSERT INTO d VALUES(1, NULL, 1);
    INSERT INTO d VALUES(1, 1, NULL);
    INSERT INTO d(a) VALUES(NULL);
    INSERT OR REPLACE INTO d(a) VALUES(NULL);
    INSERT INTO d DEFAULT VALUES;
    UPDATE d SET b = NULL;
    UPDATE OR REPLACE d SET a = NULL;
    SELECT * FROM d;
    CREATE TABLE h(a DEFAULT 5 NOT NULL ON CONFLICT REPLACE, b DEFAULT 5 UNIQUE);
    INSERT INTO h(b) VALUES(1);
    INSERT INTO h DEFAULT VALUES;
    INSERT INTO h VALUES(NULL, NULL);
  )");
}

TEST(ConflictTest, FailIgnoreAndRollbackInMultiRowStatements) {
  ExpectLikeSqlite(R"(
    CREATE TABLE x(a UNIQUE);
    INSERT INTO x VALUES(5);
    INSERT OR FAIL INTO x VALUES(1), (2), (5), (6);
    INSERT INTO x VALUES(7), (5);
    BEGIN;
    INSERT INTO x VALUES(8);
    INSERT OR ROLLBACK INTO x VALUES(9), (5);
    SELECT * FROM x;
    INSERT OR ROLLBACK INTO x VALUES(9), (5);
    COMMIT;
    BEGIN;
    INSERT INTO x VALUES(10);
    INSERT OR FAIL INTO x VALUES(11), (5);
    INSERT OR IGNORE INTO x VALUES(12), (5), (13);
    INSERT INTO x VALUES(14), (5);
    COMMIT;
    CREATE TABLE g(a INTEGER PRIMARY KEY ON CONFLICT REPLACE, b UNIQUE ON CONFLICT ROLLBACK);
    INSERT INTO g VALUES(1, 1), (2, 2);
    BEGIN;
    INSERT INTO g VALUES(3, 3);
    INSERT INTO g VALUES(1, 5);
    INSERT INTO g VALUES(4, 2);
    SELECT * FROM g;
    ROLLBACK;
  )");
}

TEST(ConflictTest, UpdateConflicts) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c NOT NULL ON CONFLICT IGNORE);
    INSERT INTO t VALUES(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4);
    UPDATE OR FAIL t SET b = 3 WHERE a <= 3;
    UPDATE t SET c = NULL WHERE a = 2;
    UPDATE OR REPLACE t SET b = 4 WHERE a = 1;
    UPDATE OR IGNORE t SET a = a + 1;
    UPDATE OR REPLACE t SET a = 3 WHERE a = 2;
    INSERT OR REPLACE INTO t VALUES(3, 4, 5);
    REPLACE INTO t VALUES(10, 3, 1);
    REPLACE INTO t(b, c) VALUES(3, 2);
    CREATE TABLE f(a INTEGER PRIMARY KEY ON CONFLICT FAIL, b UNIQUE ON CONFLICT IGNORE);
    INSERT INTO f VALUES(1, 1), (2, 2), (3, 3);
    UPDATE f SET a = a + 1;
    UPDATE f SET b = 3 WHERE a = 1;
    UPDATE OR REPLACE f SET b = 3 WHERE a = 1;
    CREATE TABLE p(a, b, c, PRIMARY KEY(a, b) ON CONFLICT REPLACE);
    INSERT INTO p VALUES(1, 1, 1), (1, 2, 2), (1, 1, 3);
    UPDATE p SET b = 2 WHERE c = 3;
    CREATE TABLE q(a UNIQUE ON CONFLICT ROLLBACK);
    INSERT INTO q VALUES(1);
    BEGIN;
    INSERT INTO q VALUES(2);
    UPDATE q SET a = 1 WHERE a = 2;
    COMMIT;
  )");
}

TEST(ConflictTest, ConflictsWithNegativeRowids) {
  // A row whose rowid is -1 conflicts like any other.
  ExpectLikeSqlite(R"(
    CREATE TABLE x(id INTEGER PRIMARY KEY, c0 INTEGER, c1 NUMERIC, UNIQUE(c0, c1));
    INSERT INTO x VALUES(-1, 'a', 0), (19, 'a', 0);
    INSERT OR IGNORE INTO x VALUES(-1, 'a', 0), (19, 'a', 0);
    CREATE TABLE y(a UNIQUE);
    INSERT INTO y(rowid, a) VALUES(-1, 5), (3, 5);
    INSERT OR REPLACE INTO y(rowid, a) VALUES(-1, 5), (3, 5);
  )");
}

TEST(ConflictTest, UpsertDoNothing) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c UNIQUE, d);
    INSERT INTO t VALUES(1, 1, 1, 1);
    INSERT INTO t VALUES(1, 2, 2, 2) ON CONFLICT DO NOTHING;
    INSERT INTO t VALUES(2, 1, 3, 3) ON CONFLICT(b) DO NOTHING;
    INSERT INTO t VALUES(3, 3, 1, 3) ON CONFLICT(b) DO NOTHING;
    INSERT INTO t VALUES(5, 5, 5, 5) ON CONFLICT(d) DO NOTHING;
    INSERT INTO t VALUES(1, 5, 5, 5) ON CONFLICT(a) DO NOTHING;
    INSERT INTO t VALUES(2, 1, 5, 5) ON CONFLICT(b) DO NOTHING ON CONFLICT(c) DO NOTHING;
    INSERT INTO t VALUES(2, 1, 5, 5) ON CONFLICT(b) DO NOTHING ON CONFLICT DO NOTHING;
    INSERT OR REPLACE INTO t VALUES(7, 1, 7, 7) ON CONFLICT(c) DO NOTHING;
    INSERT INTO t VALUES(8, 8, 8, 8), (9, 8, 9, 9), (10, 10, 10, NULL) ON CONFLICT(b) DO NOTHING;
    CREATE TABLE u(x, y, UNIQUE(y, x));
    INSERT INTO u VALUES(1, 2);
    INSERT INTO u VALUES(1, 2) ON CONFLICT(x, y) DO NOTHING;
    INSERT INTO u VALUES(1, 2), (3, 4) ON CONFLICT(y, x) DO NOTHING;
    INSERT INTO u SELECT 5, 6 ON CONFLICT DO NOTHING;
  )");
}

TEST(ConflictTest, UpsertDoUpdate) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c, d DEFAULT 0);
    INSERT INTO t VALUES(1, 'x', 10, 0), (2, 'y', 20, 0);
    INSERT INTO t VALUES(3, 'x', 30, 0) ON CONFLICT(b) DO UPDATE SET c = c + excluded.c, d = d + 1;
    INSERT INTO t VALUES(1, 'z', 5, 0) ON CONFLICT(a) DO UPDATE SET c = excluded.c * 100 WHERE c < 50;
    INSERT INTO t VALUES(1, 'z', 5, 0) ON CONFLICT(a) DO UPDATE SET c = excluded.c * 100 WHERE c < 50;
    INSERT INTO t VALUES(9, 'y', 1, 1) ON CONFLICT(b) DO UPDATE SET b = 'x';
    INSERT INTO t VALUES(9, 'y', 1, 1) ON CONFLICT DO UPDATE SET b = excluded.b || '2', a = 20;
    INSERT INTO t VALUES(4, 'q', 4, 4), (5, 'q', 5, 5), (6, 'q', 6, 6)
      ON CONFLICT(b) DO UPDATE SET c = t.c + excluded.c;
    INSERT INTO t AS tt VALUES(4, 'q', 1, 1) ON CONFLICT(b) DO UPDATE SET d = tt.d + excluded.d;
    INSERT INTO t VALUES(4, 'q', 1, 1) ON CONFLICT(b) DO UPDATE SET d = excluded.zz;
    INSERT INTO t VALUES(4, 'q', 1, 1) ON CONFLICT(b) DO UPDATE SET zz = 1;
    INSERT INTO t VALUES(4, 'q', 1, 1) ON CONFLICT(b) DO NOTHING ON CONFLICT DO UPDATE SET d = 99;
    INSERT INTO t VALUES(4, 'r', 1, 1) ON CONFLICT(b) DO NOTHING ON CONFLICT DO UPDATE SET d = 99;
    CREATE TABLE k(w TEXT PRIMARY KEY, n INT);
    INSERT INTO k VALUES('a', 1) ON CONFLICT(w) DO UPDATE SET n = n + 1;
    INSERT INTO k VALUES('a', 1) ON CONFLICT(w) DO UPDATE SET n = n + 1;
    INSERT INTO k VALUES('a', 1), ('b', 1), ('a', 1) ON CONFLICT(w) DO UPDATE SET n = n + excluded.n;
  )");
}

TEST(ConflictTest, FilesWrittenBySqliteKeepTheirActions) {
  // The actions come from the CREATE TABLE text, so a file sqlite3 made
  // behaves the same in the engine.
  testing::TempDir dir;
  const std::string setup = R"(
    CREATE TABLE k(a INTEGER PRIMARY KEY ON CONFLICT IGNORE, b UNIQUE ON CONFLICT REPLACE,
                   c NOT NULL ON CONFLICT FAIL);
    INSERT INTO k VALUES(1, 1, 1), (2, 2, 2);
  )";
  const std::string script = R"(
    INSERT INTO k VALUES(1, 5, 5);
    INSERT INTO k VALUES(3, 2, 3);
    INSERT INTO k VALUES(4, 4, 4), (5, 5, NULL), (6, 6, 6);
  )";
  const std::string mine = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  testing::SqliteTranscript(mine, setup);
  testing::SqliteTranscript(theirs, setup);
  EXPECT_EQ(testing::EngineTranscript(mine, script), testing::SqliteTranscript(theirs, script));
  EXPECT_EQ(testing::DumpTables(mine), testing::DumpTables(theirs));
}

}  // namespace
}  // namespace engine
