// CHECK constraints against the real sqlite3: which writes evaluate them,
// what counts as a failure, the message (the constraint's name, else its
// text as written), where they come among NOT NULL and UNIQUE, the OR
// clauses, what CREATE TABLE refuses in one, PRAGMA ignore_check_constraints
// and integrity_check. Each script runs on both; every statement's rows,
// error, changes() and last_insert_rowid(), and the tables afterwards, must
// be sqlite3's. The EXPECTs on sqlite3's transcript make sure each case
// says what it is about.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/database.h"
#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/script_compare.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::EngineTranscript;
using testing::ExpectLikeSqlite;
using testing::SqliteTranscript;
using testing::TempDir;

bool Has(const std::string& out, const std::string& what) {
  return out.find(what) != std::string::npos;
}

TEST(CheckConstraintTest, TheIssueScript) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a INTEGER CHECK(a>0), b TEXT, CONSTRAINT bb CHECK(length(b)<3));
    INSERT INTO t VALUES(1,'x');
    INSERT INTO t VALUES(-1,'x');
    INSERT INTO t VALUES(1,'xxxx');
    SELECT * FROM t;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a>0\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: bb\n")) << out;
}

TEST(CheckConstraintTest, MessageNamesTheConstraintElseItsTextAsWritten) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t2(a CHECK( a >  0 ), b CONSTRAINT cb CHECK(b<>'z'),
                    c CONSTRAINT nn NOT NULL CHECK(c<10));
    INSERT INTO t2 VALUES(0,1,1);
    INSERT INTO t2 VALUES(1,'z',1);
    INSERT INTO t2 VALUES(1,1,11);
    CREATE TABLE t3(a, CHECK(  a
      <   5  ), CHECK(a<>3 /* three */) ON CONFLICT IGNORE);
    INSERT INTO t3 VALUES(7);
    INSERT INTO t3 VALUES(3);
    CREATE TABLE q(a CONSTRAINT "q z" CHECK(a>0), b CONSTRAINT [q2] CHECK(b>0),
                   c CONSTRAINT 'q3' CHECK(c>0));
    INSERT INTO q VALUES(0,1,1);
    INSERT INTO q VALUES(1,0,1);
    INSERT INTO q VALUES(1,1,0);
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a >  0\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: cb\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: nn\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a\n      <   5\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a<>3 /* three */\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: q z\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: q2\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: q3\n")) << out;
}

TEST(CheckConstraintTest, AConstraintNameHoldsUntilTheNextColumnOrComma) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE n1(a CONSTRAINT x1 NOT NULL, b CHECK(b>0));
    INSERT INTO n1 VALUES(1,0);
    CREATE TABLE n2(a, b, CONSTRAINT u1 UNIQUE(a) CHECK(b>0));
    INSERT INTO n2 VALUES(1,0);
    CREATE TABLE n3(a, b, CONSTRAINT c1 CHECK(a>0) CHECK(b>0));
    INSERT INTO n3 VALUES(1,0);
    CREATE TABLE n4(a CONSTRAINT c2 CHECK(a>0) CHECK(a<10));
    INSERT INTO n4 VALUES(11);
    CREATE TABLE n5(a CHECK(a>0) CONSTRAINT c3 CHECK(a<10));
    INSERT INTO n5 VALUES(0);
    CREATE TABLE n6(a CONSTRAINT c4 DEFAULT 1 CHECK(a<10));
    INSERT INTO n6 VALUES(11);
    CREATE TABLE n7(a, b, CONSTRAINT u1 UNIQUE(a), CHECK(b>0));
    INSERT INTO n7 VALUES(1,0);
    CREATE TABLE n8(a CONSTRAINT c5 NOT NULL, CHECK(a>0));
    INSERT INTO n8 VALUES(0);
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: b>0\n")) << out;  // n1, n7
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: u1\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c1\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c2\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a>0\n")) << out;  // n5
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c4\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c5\n")) << out;
}

TEST(CheckConstraintTest, FailsOnlyWhenFalseAsANumericBoolean) {
  // NULL passes; TEXT and BLOB are read as numbers ('1abc' is 1, 'abc' 0).
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE n12(a CHECK(a), b);
    INSERT INTO n12 VALUES('abc',1);
    INSERT INTO n12 VALUES('1abc',2);
    INSERT INTO n12 VALUES(0.0,3);
    INSERT INTO n12 VALUES(x'00',4);
    INSERT INTO n12 VALUES(x'31',5);
    INSERT INTO n12 VALUES(' 2',6);
    INSERT INTO n12 VALUES(NULL,7);
    INSERT INTO n12 VALUES('0.5',8);
    INSERT INTO n12 VALUES(-0.0,9);
    INSERT INTO n12 VALUES('',10);
    SELECT b FROM n12;
    CREATE TABLE nulls(a, b, CHECK(a > b), CHECK(a IN (1, 2, NULL)));
    INSERT INTO nulls VALUES(NULL, 1);
    INSERT INTO nulls VALUES(5, NULL);
    INSERT INTO nulls VALUES(1, 2);
    SELECT * FROM nulls;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a > b\n")) << out;
}

TEST(CheckConstraintTest, SeesTheRowAsStoredAffinityAndCollationApplied) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE r(a REAL CHECK(a<>5), b TEXT CHECK(b<>'5'), c TEXT COLLATE NOCASE CHECK(c<>'x'),
                   d CHECK(typeof(d)<>'real'), e INTEGER CHECK(typeof(e)<>'text'));
    INSERT INTO r VALUES(5,1,'a',1,1);
    INSERT INTO r VALUES(1,5,'a',1,1);
    INSERT INTO r VALUES(1,1,'X',1,1);
    INSERT INTO r VALUES(1,1,'a',1.5,1);
    INSERT INTO r VALUES(1,1,'a',1,'12');
    INSERT INTO r VALUES(1,1,'a',1,'x');
    SELECT * FROM r;
    CREATE TABLE ipk(id INTEGER PRIMARY KEY CHECK(id>5), v CHECK(rowid<>7));
    INSERT INTO ipk VALUES(NULL, 1);
    INSERT INTO ipk VALUES(6, 1);
    INSERT INTO ipk(v) VALUES(1);
    INSERT INTO ipk(rowid, v) VALUES(9, 1);
    SELECT * FROM ipk;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c<>'x'\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: id>5\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: rowid<>7\n")) << out;
}

TEST(CheckConstraintTest, NotNullFirstThenChecksInOrderThenUnique) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(id INTEGER PRIMARY KEY, a UNIQUE CHECK(a<>0), b NOT NULL CHECK(b>0),
                   c DEFAULT 7 NOT NULL CHECK(c<>7), CHECK(a<>-1));
    INSERT INTO t VALUES(1,1,1,1);
    INSERT INTO t VALUES(2,1,NULL,1);
    INSERT INTO t VALUES(2,0,NULL,1);
    INSERT INTO t VALUES(2,0,0,1);
    INSERT INTO t VALUES(2,-1,0,1);
    INSERT INTO t VALUES(2,1,0,1);
    INSERT INTO t VALUES(2,1,1,1);
    INSERT INTO t VALUES(1,2,2,2);
    INSERT OR REPLACE INTO t VALUES(3,2,2,NULL);
    SELECT * FROM t;
  )");
  EXPECT_TRUE(Has(out, "error: NOT NULL constraint failed: t.b\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a<>0\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: b>0\n")) << out;
  EXPECT_TRUE(Has(out, "error: UNIQUE constraint failed: t.a\n")) << out;
  // OR REPLACE put the default in for the NULL, then the CHECK refused it.
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: c<>7\n")) << out;
}

TEST(CheckConstraintTest, ConflictClauses) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a PRIMARY KEY, b CHECK(b>0));
    INSERT INTO t VALUES(1,1);
    INSERT OR IGNORE INTO t VALUES(2,0);
    INSERT OR IGNORE INTO t VALUES(3,3),(4,-4),(5,5);
    INSERT OR REPLACE INTO t VALUES(1,0);
    REPLACE INTO t VALUES(1,-1);
    INSERT OR FAIL INTO t VALUES(6,6),(7,0),(8,8);
    INSERT OR ABORT INTO t VALUES(9,9),(10,0);
    INSERT INTO t VALUES(11,11),(12,0);
    SELECT * FROM t;
    BEGIN;
    INSERT INTO t VALUES(13,13);
    INSERT OR ROLLBACK INTO t VALUES(14,0);
    COMMIT;
    SELECT * FROM t;
    BEGIN;
    INSERT INTO t VALUES(15,15);
    INSERT INTO t VALUES(16,0);
    COMMIT;
    SELECT * FROM t;
    CREATE TABLE tc(a, CHECK(a>0) ON CONFLICT IGNORE);
    INSERT INTO tc VALUES(0);
    CREATE TABLE cc(a CHECK(a>0) ON CONFLICT IGNORE);
  )");
  EXPECT_TRUE(Has(out, "error: cannot commit - no transaction is active\n")) << out;
  EXPECT_TRUE(Has(out, "error: near \"ON\": syntax error\n")) << out;
}

TEST(CheckConstraintTest, UpdateEvaluatesOnlyTheChecksThatReadAColumnItSets) {
  const std::string out = ExpectLikeSqlite(R"(
    PRAGMA ignore_check_constraints=ON;
    CREATE TABLE t(id INTEGER PRIMARY KEY, a CHECK(a>0), b CHECK(b>0), c,
                   CHECK(a+c<100), CHECK(rowid<50), CHECK(0));
    INSERT INTO t VALUES(1,-1,-1,0),(2,1,1,200),(3,5,5,5);
    PRAGMA ignore_check_constraints=OFF;
    UPDATE t SET b=2 WHERE id=1;
    UPDATE t SET a=a WHERE id=1;
    UPDATE t SET c=c WHERE id=2;
    UPDATE t SET c=1 WHERE id=2;
    UPDATE t SET id=60 WHERE id=3;
    UPDATE t SET rowid=61 WHERE id=3;
    UPDATE t SET c=c+1 WHERE id=3;
    UPDATE t SET id=4 WHERE id=3;
    UPDATE OR IGNORE t SET b=-5;
    UPDATE OR IGNORE t SET b=b-1;
    UPDATE OR REPLACE t SET b=-5 WHERE id=4;
    UPDATE OR FAIL t SET b=b-2;
    SELECT * FROM t;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a>0\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a+c<100\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: rowid<50\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: b>0\n")) << out;
}

TEST(CheckConstraintTest, UpsertChecksTheProposedRowAndTheUpdatedOne) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE u(k INTEGER PRIMARY KEY, v UNIQUE, w CHECK(w<10), CHECK(v<>'bad'));
    INSERT INTO u VALUES(1,'a',1);
    INSERT INTO u VALUES(2,'a',20) ON CONFLICT(v) DO UPDATE SET w=excluded.w;
    INSERT INTO u VALUES(2,'a',5) ON CONFLICT(v) DO UPDATE SET w=w+100;
    INSERT INTO u VALUES(2,'a',5) ON CONFLICT(v) DO UPDATE SET v='bad';
    INSERT OR IGNORE INTO u VALUES(2,'a',5) ON CONFLICT(v) DO UPDATE SET w=w+100;
    INSERT OR IGNORE INTO u VALUES(2,'a',50) ON CONFLICT(v) DO UPDATE SET w=w+1;
    INSERT INTO u VALUES(2,'a',5) ON CONFLICT(v) DO UPDATE SET k=k;
    INSERT INTO u VALUES(2,'a',5) ON CONFLICT(v) DO UPDATE SET w=w+1;
    INSERT INTO u VALUES(3,'a',5) ON CONFLICT DO NOTHING;
    INSERT INTO u VALUES(3,'a',50) ON CONFLICT DO NOTHING;
    SELECT * FROM u;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: w<10\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: v<>'bad'\n")) << out;
}

TEST(CheckConstraintTest, InsertSelectAndTriggerBodies) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE u(k INTEGER PRIMARY KEY, v, w CHECK(w<10), CHECK(v<>'bad'));
    CREATE TABLE src(x, y);
    INSERT INTO src VALUES(10,'p'),(11,'q'),(12,'bad'),(13,'r');
    INSERT INTO u(v,w) SELECT y, 1 FROM src;
    INSERT OR IGNORE INTO u(v,w) SELECT y, 1 FROM src;
    INSERT OR FAIL INTO u(v,w) SELECT y, x FROM src;
    INSERT INTO u(v,w) SELECT v, w FROM u WHERE w < 5;
    SELECT * FROM u;
    CREATE TABLE tr(a CHECK(a>0));
    CREATE TABLE lg(x);
    CREATE TRIGGER trg AFTER INSERT ON lg BEGIN INSERT INTO tr VALUES(new.x); END;
    INSERT INTO lg VALUES(1);
    INSERT INTO lg VALUES(-1);
    CREATE TRIGGER fix BEFORE INSERT ON tr WHEN new.a < 0 BEGIN SELECT RAISE(IGNORE); END;
    INSERT INTO lg VALUES(-2);
    SELECT * FROM tr;
    SELECT * FROM lg;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: v<>'bad'\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a>0\n")) << out;
}

TEST(CheckConstraintTest, CreateTableRefusesWhatSqliteRefuses) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t5(a CHECK((SELECT 1)));
    CREATE TABLE t6(a CHECK(a>?));
    CREATE TABLE t7(a CHECK(a>:x));
    CREATE TABLE t8(a CHECK(a>x));
    CREATE TABLE t9(a CHECK(sum(a)>0));
    CREATE TABLE t10(a CHECK(a IN (SELECT 1)));
    CREATE TABLE t11(a CHECK(EXISTS(SELECT 1)));
    CREATE TABLE t12(a CHECK(nosuchfn(a)));
    CREATE TABLE t13(a CHECK(t13.a > 0), b CHECK(other.b > 0));
    CREATE TABLE t14(a CHECK(t14.a > 0));
    INSERT INTO t14 VALUES(0);
    SELECT name FROM sqlite_schema ORDER BY name;
  )");
  EXPECT_TRUE(Has(out, "error: subqueries prohibited in CHECK constraints\n")) << out;
  EXPECT_TRUE(Has(out, "error: parameters prohibited in CHECK constraints\n")) << out;
  EXPECT_TRUE(Has(out, "error: no such column: x\n")) << out;
  EXPECT_TRUE(Has(out, "error: misuse of aggregate function sum()\n")) << out;
  EXPECT_TRUE(Has(out, "error: no such function: nosuchfn\n")) << out;
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: t14.a > 0\n")) << out;
}

TEST(CheckConstraintTest, DateFunctionsMayNotReadTheClockInACheck) {
  // sqlite3 allows random() and CURRENT_TIMESTAMP but fails a write whose
  // CHECK asks a date function for 'now' or a time zone; the error comes
  // when a row is written, not at CREATE.
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE d1(d CHECK(d < date('now')));
    INSERT INTO d1 VALUES('2000-01-01');
    CREATE TABLE e1(e CHECK(e < CURRENT_TIMESTAMP));
    INSERT INTO e1 VALUES('2000');
    CREATE TABLE f1(f CHECK(datetime(f,'localtime') > 0));
    INSERT INTO f1 VALUES('2000-01-01');
    CREATE TABLE f2(f CHECK(datetime(f,'UTC') > 0));
    INSERT INTO f2 VALUES('2000-01-01');
    CREATE TABLE g1(g CHECK(strftime('%s') > 0));
    INSERT INTO g1 VALUES(1);
    CREATE TABLE h1(h CHECK(julianday() > 0));
    INSERT INTO h1 VALUES(1);
    CREATE TABLE h2(h CHECK(unixepoch(h) > 0));
    INSERT INTO h2 VALUES('now');
    INSERT INTO h2 VALUES('2001-01-01');
    CREATE TABLE h3(h CHECK(time(h) > 0));
    INSERT INTO h3 VALUES('NOW');
    INSERT INTO h3 VALUES('12:00');
    SELECT date('now') > '2000', * FROM h3;
  )");
  EXPECT_TRUE(Has(out, "error: non-deterministic use of date() in a CHECK constraint\n")) << out;
  EXPECT_TRUE(Has(out, "error: non-deterministic use of datetime() in a CHECK constraint\n"))
      << out;
  EXPECT_TRUE(Has(out, "error: non-deterministic use of strftime() in a CHECK constraint\n"))
      << out;
  EXPECT_TRUE(Has(out, "error: non-deterministic use of julianday() in a CHECK constraint\n"))
      << out;
  EXPECT_TRUE(Has(out, "error: non-deterministic use of unixepoch() in a CHECK constraint\n"))
      << out;
  EXPECT_TRUE(Has(out, "error: non-deterministic use of time() in a CHECK constraint\n")) << out;
}

TEST(CheckConstraintTest, IgnoreCheckConstraintsPragma) {
  const std::string out = ExpectLikeSqlite(R"(
    CREATE TABLE t(a CHECK(a>0));
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints=ON;
    PRAGMA ignore_check_constraints;
    INSERT INTO t VALUES(-1);
    UPDATE t SET a=-2;
    PRAGMA integrity_check;
    PRAGMA ignore_check_constraints=off;
    PRAGMA ignore_check_constraints;
    INSERT INTO t VALUES(-3);
    PRAGMA ignore_check_constraints=yes;
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints=no;
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints=2;
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints=full;
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints='TRUE';
    PRAGMA ignore_check_constraints;
    PRAGMA ignore_check_constraints=0;
    SELECT * FROM t;
  )");
  EXPECT_TRUE(Has(out, "error: CHECK constraint failed: a>0\n")) << out;
}

TEST(CheckConstraintTest, IntegrityCheckReportsRowsThatBreakOne) {
  const std::string out = ExpectLikeSqlite(R"(
    PRAGMA ignore_check_constraints=1;
    CREATE TABLE t(id INTEGER PRIMARY KEY, a NOT NULL CHECK(a>0), b UNIQUE, CHECK(b<>'x'));
    INSERT OR IGNORE INTO t VALUES(1,1,'a'),(2,-1,'b'),(3,7,'x'),(4,5,NULL),(5,0,'x'),(6,NULL,NULL);
    CREATE TABLE ok(a CHECK(a>0));
    INSERT INTO ok VALUES(1),(NULL);
    PRAGMA integrity_check;
    PRAGMA ignore_check_constraints=0;
    PRAGMA integrity_check;
    PRAGMA integrity_check(2);
    PRAGMA integrity_check(t);
    PRAGMA integrity_check(ok);
    PRAGMA quick_check;
  )");
  EXPECT_TRUE(Has(out, "CHECK constraint failed in t\n")) << out;
}

TEST(CheckConstraintTest, AFileSqliteWroteIsEnforcedFromItsSchemaText) {
  TempDir dir;
  const std::string mine = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  const std::string setup = R"(
    PRAGMA ignore_check_constraints=1;
    CREATE TABLE t(a INTEGER CHECK(a>0), b TEXT, CONSTRAINT bb CHECK(length(b)<3));
    INSERT INTO t VALUES(-5,'x');
    CREATE TABLE q(x CHECK( x  <> 'no' ));
  )";
  const std::string made = SqliteTranscript(theirs, setup);
  ASSERT_TRUE(Has(made, "CREATE TABLE q")) << made;
  std::filesystem::copy_file(theirs, mine);
  const std::string script = R"(
    INSERT INTO t VALUES(-1,'x');
    INSERT INTO t VALUES(1,'xxxx');
    INSERT INTO q VALUES('no');
    PRAGMA integrity_check;
    UPDATE t SET b='y';
    UPDATE t SET a=a;
    SELECT * FROM t;
  )";
  const std::string expected = SqliteTranscript(theirs, script);
  EXPECT_EQ(EngineTranscript(mine, script), expected);
  EXPECT_EQ(testing::DumpTables(mine), testing::DumpTables(theirs));
  EXPECT_TRUE(Has(expected, "error: CHECK constraint failed: x  <> 'no'\n")) << expected;
  EXPECT_TRUE(Has(expected, "CHECK constraint failed in t\n")) << expected;
}

TEST(CheckConstraintTest, APreparedWriteEnforcesEveryExecution) {
  // The checks are compiled once per statement; a change to the pragma
  // builds the statement again before its next run, as sqlite3 re-prepares
  // it, and the bound value stays bound.
  TempDir dir;
  auto db = Database::Open(dir.file("p.db"));
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(a CHECK(a>0))").ok());
  auto ins = (*db)->Prepare("INSERT INTO t VALUES(?1)");
  ASSERT_TRUE(ins.ok()) << ins.status().message();
  auto run = [&](int64_t v) -> Status {
    Status st = (*ins)->Reset();
    if (st.ok() && v != 0) st = (*ins)->BindInt(1, v);
    if (!st.ok()) return st;
    auto r = (*ins)->Step();
    return r.status();
  };
  EXPECT_TRUE(run(1).ok());
  Status bad = run(-1);
  EXPECT_TRUE(bad.IsConstraint());
  EXPECT_EQ(bad.message(), "CHECK constraint failed: a>0");
  EXPECT_TRUE(run(2).ok());
  ASSERT_TRUE((*db)->Exec("PRAGMA ignore_check_constraints=1").ok());
  EXPECT_TRUE(run(-3).ok());
  ASSERT_TRUE((*db)->Exec("PRAGMA ignore_check_constraints=0").ok());
  EXPECT_EQ(run(0).message(), "CHECK constraint failed: a>0");  // -3, still bound
  EXPECT_EQ(run(-4).message(), "CHECK constraint failed: a>0");
  auto count = (*db)->Prepare("SELECT count(*), sum(a) FROM t");
  ASSERT_TRUE(count.ok());
  auto r = (*count)->Step();
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_EQ((*count)->column_text(0), "3");
  EXPECT_EQ((*count)->column_text(1), "0");
}

}  // namespace
}  // namespace engine
