#include "engine/shell/shell.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/shell/error_report.h"
#include "engine/testing/run_program.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine::shell {
namespace {

const char* kSetup =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL, c);"
    "INSERT INTO t VALUES (1, 'one', 1.5, NULL), (2, 'two', 2.0, 7), (3, NULL, 0.1, 'x'),"
    "  (4, 'four', 1e20, 3.25), (5, '', -0.5, -12);"
    "CREATE TABLE u(k INTEGER UNIQUE, v TEXT NOT NULL);"
    "INSERT INTO u VALUES (1, 'a'), (2, 'b');"
    "CREATE INDEX ta ON t(a);";

struct Output {
  std::string out, err;
  int status = 0;
};

// sqlite3's shell on `db`: `script` on stdin, or `command` as its SQL argument.
Output RunSqlite3(const std::string& db, const std::string& script,
                  const std::string* command = nullptr) {
  std::vector<std::string> argv = {testing::Sqlite3ShellPath(), db};
  if (command != nullptr) argv.push_back(*command);
  const testing::ProgramOutput p = testing::RunProgram(argv, script);
  EXPECT_TRUE(p.started) << argv[0];
  return Output{p.out, p.err, p.exit_status};
}

class ShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"engine.db", "sqlite.db"}) {
      testing::SqliteDb db(dir_.file(name));
      ASSERT_TRUE(db.Exec(kSetup)) << db.error();
    }
  }

  Output RunEngine(const std::string& script) {
    auto db = Database::Open(dir_.file("engine.db"));
    EXPECT_TRUE(db.ok());
    std::istringstream in(script);
    std::ostringstream out, err;
    Shell shell(db->get(), out, err);
    Output o;
    o.status = shell.RunScript(in);
    o.out = out.str();
    o.err = err.str();
    return o;
  }

  // engine-shell DB "SQL": a fresh connection, as each sqlite3 run has.
  Output RunEngineCommand(const std::string& sql) {
    auto db = Database::Open(dir_.file("engine.db"));
    EXPECT_TRUE(db.ok());
    std::ostringstream out, err;
    Shell shell(db->get(), out, err);
    Output o;
    o.status = shell.RunCommand(sql);
    o.out = out.str();
    o.err = err.str();
    return o;
  }

  void ExpectSameAsSqlite3(const std::string& script) {
    // The sqlite3 shell is a declared dependency (scripts/install-deps.sh):
    // without it the comparison cannot run, and that is a failure, not a pass.
    ASSERT_FALSE(testing::Sqlite3ShellPath().empty())
        << "no sqlite3 shell on PATH: apt-get install sqlite3";
    const Output want = RunSqlite3(dir_.file("sqlite.db"), script);
    const Output got = RunEngine(script);
    EXPECT_EQ(got.out, want.out) << script;
    EXPECT_EQ(got.err, want.err) << script;
    EXPECT_EQ(got.status != 0, want.status != 0) << script;
  }

  // Each command as `sqlite3 DB "SQL"`: stdout, stderr and exit status.
  void ExpectCommandsSameAsSqlite3(const std::vector<std::string>& commands) {
    // The sqlite3 shell is a declared dependency (scripts/install-deps.sh):
    // without it the comparison cannot run, and that is a failure, not a pass.
    ASSERT_FALSE(testing::Sqlite3ShellPath().empty())
        << "no sqlite3 shell on PATH: apt-get install sqlite3";
    for (const std::string& sql : commands) {
      const Output want = RunSqlite3(dir_.file("sqlite.db"), "", &sql);
      const Output got = RunEngineCommand(sql);
      EXPECT_EQ(got.out, want.out) << sql;
      EXPECT_EQ(got.err, want.err) << sql;
      EXPECT_EQ(got.status, want.status) << sql;
    }
  }

  // `script` on `sqlite3 :memory:` and on the engine's shell over its own
  // ":memory:" database, both in dir_ as their working directory, where
  // `.open` names are relative. In the script "@DB@" names the database of
  // the fixture (sqlite.db for sqlite3, engine.db for the engine) and
  // "@NEW@" a file that does not exist yet; sqlite3's messages are compared
  // with its names put back to the engine's. No other file may appear.
  void ExpectSameAsSqlite3InMemory(const std::string& script) {
    ASSERT_FALSE(testing::Sqlite3ShellPath().empty())
        << "no sqlite3 shell on PATH: apt-get install sqlite3";
    auto replace = [](std::string text, const std::string& from, const std::string& to) {
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
        text.replace(at, from.size(), to);
        at += to.size();
      }
      return text;
    };
    auto subst = [&](const std::string& text, const std::string& db, const std::string& fresh) {
      return replace(replace(text, "@DB@", db), "@NEW@", fresh);
    };
    const std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir_.path());
    Output want = RunSqlite3(":memory:", subst(script, "sqlite.db", "sqlite-new.db"));
    for (std::string* text : {&want.out, &want.err}) {
      *text = replace(replace(*text, "sqlite-new.db", "engine-new.db"), "sqlite.db", "engine.db");
    }
    Output got;
    {
      auto db = Database::Open(":memory:", Shell::OpenOptions());
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      std::istringstream in(subst(script, "engine.db", "engine-new.db"));
      std::ostringstream out, err;
      Shell shell(std::move(*db), out, err);
      got.status = shell.RunScript(in);
      got.out = out.str();
      got.err = err.str();
    }
    std::filesystem::current_path(cwd);
    EXPECT_EQ(got.out, want.out) << script;
    EXPECT_EQ(got.err, want.err) << script;
    EXPECT_EQ(got.status != 0, want.status != 0) << script;
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
      const std::string n = e.path().filename().string();
      if (n != "engine.db" && n != "sqlite.db" && n != "engine-new.db" && n != "sqlite-new.db") {
        names.push_back(n);
      }
    }
    EXPECT_EQ(names, std::vector<std::string>()) << script;
  }

  testing::TempDir dir_;
};

TEST_F(ShellTest, QueriesPrintLikeSqlite3) {
  ExpectSameAsSqlite3(
      "SELECT * FROM t;\n"
      "SELECT id, b * 3, b / 7, c || 'z', typeof(c) FROM t ORDER BY b;\n"
      "SELECT count(*), sum(b), avg(id), min(a), max(a) FROM t;\n"
      "SELECT a, id FROM t WHERE a > 'f' ORDER BY a;\n"
      "select 1.5, 1e20, 0.1, NULL, 3/2.0, 10/3, -0.0, 1e300*1e300;\n"
      "SELECT k, v FROM u\n  WHERE k IN (SELECT id FROM t);\n"
      "SELECT 1; SELECT 2;\n"
      "SELECT 'no semicolon'");
}

TEST_F(ShellTest, DotCommandsMatch) { ExpectSameAsSqlite3(".tables\n.schema\n.schema u\n"); }

TEST_F(ShellTest, ErrorsMatch) {
  ExpectSameAsSqlite3(
      "SELECT 1;\n"
      "SELECT * FROM nope;\n"
      "SELECT 2;\n"
      "INSERT INTO u VALUES (1, 'dup');\n"
      "INSERT INTO u VALUES (9, NULL);\n"
      "SELECT count(*) FROM u;\n");
}

// Syntax errors show the statement and a caret under the error, the way
// sqlite3 3.40 draws them: short and long statements (the "error here ---^"
// form past byte 25, the window that slides past byte 50 and stops at 78
// bytes), statements that follow another on the line, multi-line chunks
// (reported at the chunk's first line), UTF-8 before the error.
TEST_F(ShellTest, SyntaxErrorContextMatchesInScripts) {
  ExpectSameAsSqlite3(
      "SELECT * FORM t;\n"
      "SELECT 1; SELEC 2; SELECT 3;\n"
      "  SELECT id\n    FROM t WHERE a = 'one'\n    ORDER BY id LIMT 3;\n"
      "-- a comment line is skipped\n"
      "# and so is a shell comment\n"
      "SELECT 1; /* a comment */ SELEC 2;\n"
      "SELECT 'é', 'ü' FORM t;\n"
      "SELECT id, a, b, c, id + 1, id * 2, a || 'suffix', b / 2.0, typeof(c) FROM t "
      "WHERE id > 1 AND a NOTNULL GROUP BY id HAVNG count(*) > 0;\n"
      "SELECT 'éééééééééééééééééééééééééééééé' AS x, 'üüüüüüüüüüüüüüü' AS y WHERE 1 = 1 AND AND "
      "2;\n"
      "SELECT x'zz';\n"
      "SELECT 'unterminated;\n"
      "';\n"
      "SELECT 0x1234567890abcdef12;\n"
      "SELECT * FROM t NATURAL FOO JOIN u;\n"
      "SELECT 1 +\n");
}

// Errors the planner and the DDL find carry the place SQLite gives them.
TEST_F(ShellTest, NameErrorContextMatchesInScripts) {
  ExpectSameAsSqlite3(
      "SELECT nosuch FROM t;\n"
      "SELECT t.nosuch FROM t;\n"
      "SELECT id FROM t WHERE a = 'one' AND b = 1.5 AND c IS NULL AND nosuch = 1;\n"
      "SELECT nofunc(1);\n"
      "SELECT abs(1, 2);\n"
      "SELECT a FROM t, t AS t2;\n"
      "CREATE TABLE t(x);\n"
      "CREATE TABLE main.u(x);\n"
      "SELECT * FROM nope;\n");
}

// Key columns a table does not have: in PRIMARY KEY, UNIQUE (which the
// engine once accepted), CREATE INDEX and an UPSERT's target, each with
// the caret at the name; FOREIGN KEY's own message.
TEST_F(ShellTest, UnknownKeyColumnsMatchInScripts) {
  ExpectSameAsSqlite3(
      "CREATE TABLE k1(a, UNIQUE(zz));\n"
      "CREATE TABLE k2(a, b, UNIQUE(a, b COLLATE nocase, zz DESC));\n"
      "CREATE TABLE k3(a, PRIMARY KEY(zz));\n"
      "CREATE TABLE k4(a, FOREIGN KEY(zz) REFERENCES u(id));\n"
      "CREATE TABLE k5(a, b, FOREIGN KEY(a, b) REFERENCES u(id, a));\n"
      "CREATE INDEX ki ON t(a, zz);\n"
      "CREATE UNIQUE INDEX kj ON t(zz);\n"
      "INSERT INTO u VALUES (7, 'x') ON CONFLICT(zz) DO NOTHING;\n"
      ".tables\n");
}

// * and t.* name each column main.t.col (tables, views) or *.t.col
// (subqueries, CTEs): two FROM items of one name that both show a column
// make it ambiguous, unless USING or NATURAL merged it.
TEST_F(ShellTest, StarOverTwoItemsOfOneNameMatchesInScripts) {
  ExpectSameAsSqlite3(
      "CREATE VIEW v AS SELECT id, a FROM t;\n"
      "SELECT * FROM t, t;\n"
      "SELECT t.* FROM t, main.t;\n"
      "SELECT * FROM t AS x, u AS X;\n"
      "SELECT x.* FROM t AS x, u AS x;\n"
      "SELECT * FROM t AS x, v AS x;\n"
      "SELECT * FROM v, v;\n"
      "SELECT * FROM (SELECT 1 AS a) AS s, (SELECT 2 AS a) AS s;\n"
      "WITH w AS (SELECT 1 AS a) SELECT * FROM w, w;\n"
      "WITH w AS (SELECT 1 AS id) SELECT * FROM t, w AS t;\n"
      "SELECT count(*) FROM t NATURAL JOIN t;\n"
      "SELECT * FROM t AS x JOIN t AS x USING (id, a, b) WHERE 0;\n"
      "SELECT * FROM t AS x JOIN t AS x USING (id);\n"
      "SELECT * FROM (SELECT 1 AS a), (SELECT 2 AS a);\n"
      "SELECT count(*) FROM t, t AS t2;\n");
}

// Runtime errors name the chunk's first line and the result code, without
// context, as sqlite3 prints them.
TEST_F(ShellTest, RuntimeErrorsMatchInScripts) {
  ExpectSameAsSqlite3(
      "INSERT INTO u VALUES (1, 'dup');\n"
      "INSERT INTO u VALUES (9, NULL);\n"
      "SELECT abs(-9223372036854775808);\n"
      "INSERT INTO t(id) VALUES ('text');\n"
      "COMMIT;\n"
      "SELECT 1;\nSELECT 'x\ny'; INSERT INTO u VALUES (2, 'b');\n"
      "SELECT count(*) FROM u;\n");
}

// CHECK constraints: a failure is a runtime error (19); what CREATE TABLE
// refuses in one is a parse error, with sqlite3's context where it has
// one; a date function's 'now' in one fails the write, as a runtime error.
TEST_F(ShellTest, CheckConstraintErrorsMatchInScripts) {
  ExpectSameAsSqlite3(
      "CREATE TABLE k(a CHECK( a >  0 ), b, CONSTRAINT kb CHECK(b<>'x'));\n"
      "INSERT INTO k VALUES (0, 1);\n"
      "INSERT INTO k VALUES (1, 'x');\n"
      "CREATE TABLE k2(a CHECK(a > ?));\n"
      "CREATE TABLE k3(a CHECK(a IN (SELECT 1)));\n"
      "CREATE TABLE k4(a CHECK((SELECT 1)));\n"
      "CREATE TABLE k5(a CHECK(a > nosuch));\n"
      "CREATE TABLE k6(a CHECK(a < date('now')));\n"
      "INSERT INTO k6 VALUES ('2000-01-01');\n"
      "SELECT count(*) FROM k;\n");
}

TEST_F(ShellTest, ErrorContextMatchesInCommandMode) {
  ExpectCommandsSameAsSqlite3({
      "SELECT * FORM t",
      "   SELEC 1",
      "\n  SELEC 1",
      "SELECT 1; SELEC 2",
      "SELECT 1;\n\n  SELECT a FROM t WHERE id = 1 ORDER BY a DESC LIMT 1",
      "SELECT 'abc",
      "SELECT nosuch FROM t",
      "SELECT abs()",
      "CREATE TABLE t(x)",
      "INSERT INTO u VALUES (1, 'dup')",
      "SELECT abs(-9223372036854775808)",
      "INSERT INTO t(id) VALUES ('text')",
      "SELECT 1 +",
  });
}

// TEMP tables, views, indexes and triggers beside main's: shadowing, the
// "temp."/"main." qualifiers, sqlite_temp_schema, triggers across the two
// databases and the order they fire in, DROP, PRAGMAs, rollback, the errors
// for what may not be qualified; and EXPLAIN QUERY PLAN drawn as sqlite3
// draws it.
TEST_F(ShellTest, TempSchemaMatchesSqlite3) {
  ExpectSameAsSqlite3InMemory(R"sql(create table t(a);
insert into t values(1);
create temp table t(b);
insert into t values(2);
select * from t;
select * from main.t;
select * from temp.t;
create table t(c);
create temp table t(c);
create temp table u(x);
create table u(y);
insert into main.u values(100);
select * from u;
select * from main.u;
select type,name,tbl_name,rootpage,sql from sqlite_temp_master;
select type,name,tbl_name,rootpage,sql from temp.sqlite_master;
select type,name from temp.sqlite_schema;
select type,name from sqlite_temp_schema;
select type,name from sqlite_master;
create temp view v as select * from main.t;
select * from v;
create view v3 as select * from u;
select * from v3;
create index i on u(x);
create index temp.j on u(x);
select type,name,tbl_name from sqlite_temp_master order by name;
create temp trigger tr after insert on main.t begin insert into u values(new.a*10); end;
insert into main.t values(5);
select * from temp.u;
create trigger tr2 after insert on u begin select 1; end;
select type,name from sqlite_temp_master where type='trigger' order by name;
drop table t;
select * from t;
drop table t;
select * from t;
pragma table_info(u);
pragma temp.table_info(u);
pragma main.table_info(u);
create table temp.w(q);
create temp table main.w2(q);
select * from nosuch.t;
create temp view tv as select * from nosuch;
select * from tv;
create view mv as select * from nosuch2;
select * from mv;
create temp view main.x as select 1;
create view temp.y as select 1;
select * from temp.y;
create view mvt as select * from temp.y;
create view mvt2 as select 1 union select * from (select * from main.m, temp.y);
create view mvt3 as select * from m where exists (select 1 from temp.y);
create table m(a);
create temp table tt(b);
create trigger trx before insert on temp.tt begin select 1; end;
create trigger main.tr3 before insert on tt begin select 1; end;
create trigger tr4 before insert on m begin insert into tt values(new.a); end;
create temp trigger tr5 before insert on m begin insert into tt values(new.a+100); end;
insert into m values(1);
select * from tt;
drop trigger tr4;
insert into m values(2);
select * from tt;
drop trigger tr5;
drop trigger temp.trx;
drop table temp.m;
drop table main.tt;
drop index temp.nosuch;
create index temp.ix on m(a);
create index main.ix2 on tt(b);
select name from main.sqlite_temp_master;
select name from temp.sqlite_temp_master order by 1;
begin; create temp table r(x); insert into r values(1); rollback;
select * from r;
begin; insert into tt values(7); rollback;
select * from tt;
begin; insert into tt values(8); insert into m values(3); commit;
select * from tt;
select * from m;
create temp table s(x unique);
insert into s values(1);
insert into s values(1);
begin;
insert into s values(2);
insert into s values(1);
insert into s values(3);
commit;
select * from s;
create table log(x);
create trigger m1 after insert on m begin insert into log values('m1'); end;
create temp trigger t1 after insert on m begin insert into log values('t1'); end;
create trigger m2 after insert on m begin insert into log values('m2'); end;
create temp trigger t2 after insert on m begin insert into log values('t2'); end;
insert into m values(4);
select group_concat(x) from log;
drop table m;
select name from sqlite_temp_master order by 1;
create temp trigger x after insert on nosuch begin select 1; end;
create temp table tq(a);
create trigger main.xx after insert on temp.tq begin select 1; end;
create table mq(a);
create trigger xy after insert on temp.mq begin select 1; end;
create temp trigger main.xz after insert on mq begin select 1; end;
create temp view tv2 as select * from tq;
create view mv2 as select * from mq;
create temp trigger ti instead of insert on mv2 begin insert into tq values(new.a); end;
insert into mv2 values(9);
select * from tq;
update temp.tq set a = a + 1;
delete from tq where a = 10;
select count(*) from tq;
insert into tq select 5 union all select 6;
select * from tq, mq where tq.a = mq.a;
insert into mq values(6);
select * from tq, mq where tq.a = mq.a;
select * from tv2 order by a;
drop view tv2;
drop view temp.nosuch;
drop view temp.tq;
select * from tv2;
create temp table big(k integer primary key, v text);
insert into big with recursive c(i) as (select 1 union all select i+1 from c where i<3000) select i, 'x' || i from c;
select count(*), sum(k), max(v) from big;
create index bigv on big(v);
select k from big where v = 'x2999';
select * from temp.sqlite_master where type='index' order by name;
pragma database_list;
pragma temp.integrity_check;
pragma temp.index_list(big);
pragma index_list(big);
pragma main.index_list(big);
explain query plan select * from big where v = 'x7';
create table pa(x); create table pb(y); create table pc(z);
explain query plan select * from pa where x in (select y from pb) and exists (select 1 from pc where z = x);
explain query plan select * from main.pa, temp.big where big.v = pa.x;
)sql");
}

// A script against :memory:: output, errors, transactions, statement undo
// and the pragmas that describe the database, as sqlite3 prints them.
TEST_F(ShellTest, InMemoryDatabaseMatchesSqlite3) {
  ExpectSameAsSqlite3InMemory(
      "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT UNIQUE);\n"
      "INSERT INTO t VALUES (1, 'one'), (2, 'two');\n"
      // Before anything that makes sqlite3 open its temp database (listed
      // as "1|temp|"), which the engine opens only for TEMP objects.
      "PRAGMA database_list;\n"
      "BEGIN;\n"
      "INSERT INTO t VALUES (3, 'three');\n"
      "INSERT INTO t VALUES (4, 'four'), (5, 'one');\n"
      "COMMIT;\n"
      "SELECT * FROM t;\n"
      "BEGIN; DELETE FROM t; SELECT count(*) FROM t; ROLLBACK;\n"
      "SELECT count(*) FROM t;\n"
      "CREATE TABLE big(a, b);\n"
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000)\n"
      "  INSERT INTO big SELECT i, printf('%08d', i) FROM c;\n"
      "SELECT count(*), sum(a), max(b) FROM big;\n"
      "PRAGMA journal_mode;\n"
      "PRAGMA journal_mode = delete;\n"
      "PRAGMA page_size;\n"
      "PRAGMA integrity_check;\n"
      ".tables\n"
      ".schema t\n");
}

// `.open`: a file, :memory:, a temporary database (no name), --readonly,
// --new, URIs, and the errors sqlite3 reports (a failed open goes on with an
// in-memory database).
TEST_F(ShellTest, DotOpenMatchesSqlite3) {
  ExpectSameAsSqlite3InMemory(
      "CREATE TABLE m(x); INSERT INTO m VALUES (1);\n"
      ".open @DB@\n"
      "SELECT count(*) FROM t;\n"
      "SELECT * FROM m;\n"
      ".open :memory:\n"
      ".tables\n"
      "SELECT count(*) FROM sqlite_schema;\n"
      ".open\n"
      "PRAGMA journal_mode;\n"
      "CREATE TABLE tmp(a); INSERT INTO tmp VALUES (7); SELECT * FROM tmp;\n"
      ".open --readonly @DB@\n"
      "INSERT INTO u VALUES (9, 'z');\n"
      "SELECT count(*) FROM u;\n"
      ".open file:@DB@?mode=ro\n"
      "DELETE FROM u;\n"
      ".open file:@DB@?mode=bogus\n"
      "SELECT 1;\n"
      "PRAGMA journal_mode;\n"
      ".open nodir/x.db\n"
      "PRAGMA journal_mode;\n"
      ".open -x\n"
      ".open a b\n"
      ".op file:@DB@\n"
      "SELECT count(*) FROM u;\n"
      ".open @NEW@\n"
      "CREATE TABLE n(a);\n"
      ".tables\n"
      ".open --new @DB@\n"
      ".tables\n"
      "SELECT count(*) FROM sqlite_schema;\n");
}

TEST(ShellCommandTest, CommandModeExitStatus) {
  testing::TempDir dir;
  auto db = Database::Open(dir.file("c.db"));
  ASSERT_TRUE(db.ok());
  std::ostringstream out, err;
  Shell shell(db->get(), out, err);
  EXPECT_EQ(shell.RunCommand("CREATE TABLE t(a UNIQUE); INSERT INTO t VALUES (1);"), 0);
  EXPECT_EQ(shell.RunCommand("SELECT a FROM t"), 0);
  EXPECT_EQ(out.str(), "1\n");
  EXPECT_EQ(shell.RunCommand("SELECT * FROM nope"), 1);
  EXPECT_EQ(err.str(), "Error: in prepare, no such table: nope\n");
  err.str("");
  EXPECT_EQ(shell.RunCommand("INSERT INTO t VALUES (1)"), 19);
  EXPECT_EQ(err.str(), "Error: stepping, UNIQUE constraint failed: t.a (19)\n");
}

// The caret drawing alone, against strings sqlite3 3.40 printed.
TEST(ErrorContextTest, DrawsLikeSqlite3) {
  EXPECT_EQ(ErrorContext("SELECT * FORM t", 9), "\n  SELECT * FORM t\n           ^--- error here");
  EXPECT_EQ(ErrorContext("SELECT * FORM t", -1), "");
  EXPECT_EQ(ErrorContext("SELECT 1", 8), "");  // past the text: no place to show
  const std::string mid = "SELECT 1 FROM t WHERE a = 1 AND b = 2 AND FORM";
  EXPECT_EQ(ErrorContext(mid, 42),
            "\n  " + mid + "\n  " + std::string(28, ' ') + "error here ---^");
  const std::string long_sql = "   SELECT x FROM t WHERE " + std::string(70, 'a') + " = 1 AND " +
                               std::string(62, 'b') + " FORM";
  EXPECT_EQ(ErrorContext(long_sql, static_cast<int>(long_sql.find("FORM"))),
            "\n  " + std::string(49, 'b') + " FORM\n" + std::string(38, ' ') + "error here ---^");
  const std::string utf8 = "SELECT 'x', 'ééééééééééééééééééééééééé' FORM t WHERE 1";
  EXPECT_EQ(
      ErrorContext(utf8, static_cast<int>(utf8.find(" t ")) + 1),
      "\n  ééééééééééééééééééééé' FORM t WHERE 1\n" + std::string(37, ' ') + "error here ---^");
  // Every kind of whitespace is shown as one space.
  EXPECT_EQ(ErrorContext("SELECT\n\t*\rFORM t", 10),
            "\n  SELECT  * FORM t\n            ^--- error here");
}

TEST(ShellCompleteTest, Completeness) {
  EXPECT_TRUE(IsComplete("select 1;"));
  EXPECT_TRUE(IsComplete("select 1; -- done\n"));
  EXPECT_FALSE(IsComplete("select ';'"));
  EXPECT_FALSE(IsComplete("select 1"));
  EXPECT_FALSE(IsComplete("select /* ; */ 1"));
  EXPECT_TRUE(IsComplete("select \"a;b\";"));
}

}  // namespace
}  // namespace engine::shell
