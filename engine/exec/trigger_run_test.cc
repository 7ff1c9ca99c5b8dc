// Triggers against the real sqlite3: BEFORE / AFTER on INSERT, UPDATE [OF]
// and DELETE, WHEN, NEW / OLD (NEW.rowid -1 before an automatic rowid), the
// newest trigger first, RAISE(IGNORE | ABORT | FAIL | ROLLBACK), no
// recursion, the statement's OR clause reaching the body, errors of the
// body at prepare time, DROP TABLE dropping its triggers, sqlite_schema rows
// and files written by either side.
#include <gtest/gtest.h>

#include <string>

#include "engine/database.h"
#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::ExpectLikeSqlite;

TEST(TriggerTest, CreateDropAndTheirErrors) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b);
    CREATE TABLE log(x);
    CREATE VIEW v AS SELECT * FROM t;
    create trigger t1 after insert on t begin insert into log values('t1 ' || new.a || ' ' || new.b); end;
    CREATE TRIGGER IF NOT EXISTS t1 AFTER INSERT ON t BEGIN SELECT 1; END;
    CREATE TRIGGER t1 AFTER INSERT ON t BEGIN SELECT 1; END;
    CREATE TRIGGER IF NOT EXISTS t3 BEFORE INSERT ON t FOR EACH ROW WHEN new.b > 5 BEGIN
      INSERT INTO log VALUES('t3 ' || new.a || ' ' || new.rowid);
    END;
    CREATE TRIGGER x AFTER INSERT ON nosuch BEGIN SELECT 1; END;
    CREATE TRIGGER x AFTER INSERT ON sqlite_master BEGIN SELECT 1; END;
    CREATE TRIGGER sqlite_x AFTER INSERT ON t BEGIN SELECT 1; END;
    CREATE TRIGGER x BEFORE DELETE ON v BEGIN SELECT 1; END;
    CREATE TRIGGER x INSTEAD OF DELETE ON t BEGIN SELECT 1; END;
    CREATE TRIGGER bad AFTER INSERT ON t BEGIN INSERT INTO log VALUES(old.a); END;
    INSERT INTO t VALUES(10, 1);
    DROP TRIGGER bad;
    CREATE TRIGGER bad AFTER INSERT ON t BEGIN INSERT INTO log VALUES(new.zz); END;
    INSERT INTO t VALUES(11, 1);
    DROP TRIGGER bad;
    CREATE TRIGGER bad AFTER INSERT ON t BEGIN INSERT INTO nosuch VALUES(1); END;
    INSERT INTO t VALUES(11, 1);
    DROP TRIGGER bad;
    DROP TRIGGER bad;
    DROP TRIGGER IF EXISTS bad;
    SELECT RAISE(IGNORE);
    CREATE TRIGGER q AFTER INSERT ON t BEGIN INSERT INTO main.log VALUES(1); END;
    CREATE TRIGGER q AFTER INSERT ON t BEGIN SELECT ?; END;
    CREATE TRIGGER main.q AFTER INSERT ON main.t BEGIN SELECT * FROM main.log; END;
    DROP TRIGGER q;
    INSERT INTO t VALUES(1, 2), (NULL, 7);
    INSERT INTO t(b) VALUES(9);
    SELECT * FROM log;
    SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY name;
    DROP TABLE t;
    SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name;
  )");
  EXPECT_NE(out.find("error: trigger t1 already exists\n"), std::string::npos) << out;
  EXPECT_NE(out.find("t3 -1 -1\n"), std::string::npos) << out;
}

TEST(TriggerTest, RowTriggersOnEveryEvent) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b, c UNIQUE);
    CREATE TABLE log(x);
    CREATE TABLE other(y);
    CREATE TRIGGER bi BEFORE INSERT ON t BEGIN
      INSERT INTO log VALUES('bi ' || new.a || ' ' || new.b || ' ' || new.rowid);
    END;
    CREATE TRIGGER ai AFTER INSERT ON t WHEN new.b = 'x' BEGIN
      INSERT INTO log VALUES('ai ' || new.a); INSERT INTO other VALUES(new.c);
    END;
    CREATE TRIGGER bu BEFORE UPDATE OF b ON t BEGIN INSERT INTO log VALUES('bu ' || old.b || '>' || new.b); END;
    CREATE TRIGGER au AFTER UPDATE ON t BEGIN
      INSERT INTO log VALUES('au ' || old.a || ' ' || new.a || ' ' || old.c || ' ' || new.c);
    END;
    CREATE TRIGGER bd BEFORE DELETE ON t BEGIN INSERT INTO log VALUES('bd ' || old.a); END;
    CREATE TRIGGER ad AFTER DELETE ON t BEGIN
      INSERT INTO log VALUES('ad ' || old.a || ' ' || old.b); DELETE FROM other WHERE y = old.c;
    END;
    INSERT INTO t VALUES(1, 'x', 10), (2, 'y', 20), (NULL, 'x', 30);
    UPDATE t SET b = 'z' WHERE a = 2;
    UPDATE t SET c = c + 1;
    DELETE FROM t WHERE a = 1;
    SELECT * FROM log;
    CREATE TRIGGER u1 AFTER UPDATE ON t BEGIN UPDATE t SET b = 'from trigger' WHERE a = new.a + 1; END;
    UPDATE t SET b = 'w';
    CREATE TRIGGER d1 BEFORE DELETE ON t BEGIN DELETE FROM t WHERE a = old.a + 1; END;
    DELETE FROM t;
  )");
}

TEST(TriggerTest, RaiseAndAtomicity) {
  ExpectLikeSqlite(R"(
    CREATE TABLE g(a);
    CREATE TRIGGER gi BEFORE INSERT ON g BEGIN SELECT RAISE(IGNORE) WHERE new.a = 2; END;
    CREATE TRIGGER ga AFTER INSERT ON g BEGIN SELECT RAISE(ABORT, 'no threes') WHERE new.a = 3; END;
    CREATE TRIGGER gf BEFORE INSERT ON g WHEN new.a = 4 BEGIN SELECT RAISE(FAIL, 'four'); END;
    INSERT INTO g VALUES(1), (2), (5);
    INSERT INTO g VALUES(6), (3), (7);
    INSERT INTO g VALUES(8), (4), (9);
    BEGIN;
    INSERT INTO g VALUES(10);
    CREATE TRIGGER gr BEFORE INSERT ON g WHEN new.a = 11 BEGIN SELECT RAISE(ROLLBACK, 'eleven'); END;
    INSERT INTO g VALUES(12), (11);
    COMMIT;
    CREATE TABLE uu(a UNIQUE, b);
    INSERT INTO uu VALUES(1, 1), (2, 2);
    CREATE TRIGGER uut AFTER INSERT ON uu BEGIN INSERT INTO uu VALUES(new.a - 10, 0); END;
    INSERT INTO uu VALUES(11, 5);
    INSERT OR IGNORE INTO uu VALUES(12, 5);
    INSERT INTO uu VALUES(13, 5), (2, 9);
  )");
}

TEST(TriggerTest, NewAndOldCompareWithoutAffinity) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c INTEGER);
    CREATE TABLE log(w, x, y, z, t1, t2);
    CREATE TRIGGER bi BEFORE INSERT ON t BEGIN
      INSERT INTO log VALUES(new.b = 5, new.b = '5', new.c = '7', new.c < '8', typeof(new.b),
                             typeof(new.c));
    END;
    CREATE TRIGGER bu BEFORE UPDATE ON t BEGIN
      INSERT INTO log VALUES(new.b = 5, old.b = '5', new.c = '8', old.c < '8', typeof(new.b),
                             typeof(new.c));
    END;
    INSERT INTO t VALUES(1, 5, '7');
    UPDATE t SET b = 6, c = '8';
  )");
}

TEST(TriggerTest, UpsertDoUpdateFiresUpdateTriggers) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c);
    CREATE TABLE log(x, y, z);
    CREATE TRIGGER bu BEFORE UPDATE ON t BEGIN INSERT INTO log VALUES('bu', old.c, new.c); END;
    CREATE TRIGGER au AFTER UPDATE OF c ON t BEGIN INSERT INTO log VALUES('au', old.c, new.c); END;
    CREATE TRIGGER ig BEFORE UPDATE ON t WHEN new.c = 7 BEGIN SELECT RAISE(IGNORE); END;
    CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log VALUES('ai', new.a, new.c); END;
    INSERT INTO t VALUES(1, 'x', 1);
    INSERT INTO t VALUES(2, 'x', 5) ON CONFLICT(b) DO UPDATE SET c = excluded.c;
    INSERT INTO t VALUES(2, 'x', 7) ON CONFLICT(b) DO UPDATE SET c = excluded.c;
    INSERT INTO t VALUES(2, 'x', 9) ON CONFLICT(b) DO UPDATE SET b = 'y';
  )");
}

TEST(TriggerTest, NoRecursion) {
  ExpectLikeSqlite(R"(
    CREATE TABLE r(n);
    CREATE TRIGGER rr AFTER INSERT ON r WHEN new.n < 5 BEGIN INSERT INTO r VALUES(new.n + 1); END;
    INSERT INTO r VALUES(1);
    CREATE TABLE p(a);
    CREATE TABLE q(b);
    CREATE TRIGGER pq AFTER INSERT ON p BEGIN INSERT INTO q VALUES(new.a * 10); END;
    CREATE TRIGGER qp AFTER INSERT ON q BEGIN INSERT INTO p VALUES(new.b + 1); END;
    INSERT INTO p VALUES(1);
    INSERT INTO q VALUES(5);
  )");
}

TEST(TriggerTest, InsteadOfTriggersMakeViewsWritable) {
  ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b, c);
    INSERT INTO t VALUES(1, 'x', 10), (2, 'y', 20), (3, 'z', 30);
    CREATE VIEW v(p, q) AS SELECT a, b FROM t WHERE c > 10;
    CREATE TABLE log(k, x, y, z, w);
    INSERT INTO v VALUES(5, 'five');
    CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN
      INSERT INTO log VALUES('ins', new.p, new.q, NULL, NULL);
      INSERT INTO t VALUES(new.p, new.q, 99);
    END;
    CREATE TRIGGER vu INSTEAD OF UPDATE ON v BEGIN
      INSERT INTO log VALUES('upd', old.p, old.q, new.p, new.q);
    END;
    CREATE TRIGGER vd INSTEAD OF DELETE ON v FOR EACH ROW WHEN old.p > 2 BEGIN
      INSERT INTO log VALUES('del', old.p, old.q, NULL, NULL);
      DELETE FROM t WHERE a = old.p;
    END;
    INSERT INTO v VALUES(7, 'seven');
    INSERT INTO v(q) VALUES('noq');
    INSERT INTO v SELECT a + 10, b FROM t;
    UPDATE v SET q = q || '!' WHERE p >= 2;
    UPDATE v SET p = 100, q = 'a', p = 200;
    DELETE FROM v;
    DELETE FROM v WHERE p = 2;
    INSERT INTO v VALUES(1, 2, 3);
    UPDATE v SET zz = 1;
    INSERT INTO v(zz) VALUES(1);
    DROP VIEW v;
    SELECT name FROM sqlite_schema WHERE type = 'trigger';
  )");
}

TEST(TriggerTest, DepthIsBounded) {
  // A chain of 1002 triggers, each on the next table, nests deeper than
  // SQLite's 1000 levels: the statement fails, and undoes every level.
  std::string script = "BEGIN;";
  const int n = 1003;
  for (int i = 0; i < n; ++i) script += "CREATE TABLE t" + std::to_string(i) + "(a);";
  for (int i = 0; i + 1 < n; ++i) {
    script += "CREATE TRIGGER tr" + std::to_string(i) + " AFTER INSERT ON t" + std::to_string(i) +
              " BEGIN INSERT INTO t" + std::to_string(i + 1) + " VALUES(new.a + 1); END;";
  }
  script += "COMMIT; INSERT INTO t0 VALUES(1); SELECT count(*) FROM t1;";
  script += "INSERT INTO t2 VALUES(1); SELECT count(*) FROM t" + std::to_string(n - 1) + ";";
  const std::string out = ExpectLikeSqlite(script);
  EXPECT_NE(out.find("error: too many levels of trigger recursion\n"), std::string::npos);
}

TEST(TriggerTest, PreparedStatementsSeeNewTriggers) {
  // A trigger created after a statement was prepared fires on its next run,
  // as sqlite3_prepare_v2's statements re-plan on a schema change.
  testing::TempDir dir;
  auto db = Database::Open(dir.file("e.db"));
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(a); CREATE TABLE log(x);").ok());
  auto ins = (*db)->Prepare("INSERT INTO t VALUES(1)");
  ASSERT_TRUE(ins.ok());
  ASSERT_TRUE((*ins)->Step().ok());
  ASSERT_TRUE(
      (*db)
          ->Exec("CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES(new.a); END")
          .ok());
  ASSERT_TRUE((*ins)->Reset().ok());
  ASSERT_TRUE((*ins)->Step().ok());
  EXPECT_EQ((*db)->changes(), 1);  // the trigger's row is not counted
  ASSERT_TRUE((*db)->Exec("DROP TRIGGER tr").ok());
  ASSERT_TRUE((*ins)->Reset().ok());
  ASSERT_TRUE((*ins)->Step().ok());
  ins->reset();
  db->reset();
  testing::TempDir unused;
  EXPECT_EQ(testing::DumpTables(dir.file("e.db")), "table log\n1\ntable t\n1\n1\n1\n");
}

TEST(TriggerTest, TriggersInFilesWrittenByTheOther) {
  const std::string setup = R"(
    CREATE TABLE t(a INTEGER PRIMARY KEY, b);
    CREATE TABLE log(x);
    CREATE TRIGGER tb BEFORE INSERT ON t WHEN new.b IS NOT NULL BEGIN
      INSERT INTO log VALUES('before ' || new.b);
    END;
    CREATE TRIGGER ta AFTER UPDATE OF b ON t BEGIN INSERT INTO log VALUES(old.b || '->' || new.b); END;
  )";
  const std::string use = R"(
    INSERT INTO t VALUES(1, 'p'), (2, NULL);
    UPDATE t SET b = 'q';
    SELECT * FROM log;
    SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name;
  )";
  testing::TempDir dir;
  const std::string by_engine = dir.file("by_engine.db");
  const std::string by_sqlite = dir.file("by_sqlite.db");
  const std::string ref = dir.file("ref.db");
  EXPECT_EQ(testing::EngineTranscript(by_engine, setup),
            testing::SqliteTranscript(by_sqlite, setup));
  testing::SqliteTranscript(ref, setup);
  const std::string want = testing::SqliteTranscript(ref, use);
  EXPECT_EQ(testing::SqliteTranscript(by_engine, use), want);  // sqlite3 fires the engine's
  EXPECT_EQ(testing::EngineTranscript(by_sqlite, use), want);  // and the engine sqlite3's
}

}  // namespace
}  // namespace engine
