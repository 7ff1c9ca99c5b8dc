// WITH and WITH RECURSIVE against sqlite3 on the same file: the same rows in
// the same order, the same column names, the same errors and, where the
// engine renders them like sqlite3, the same plans.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class CteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("cte.db");
    testing::SqliteDb db(path_);
    ASSERT_TRUE(db.Exec(
        "CREATE TABLE org(name TEXT PRIMARY KEY, boss TEXT, height INT);"
        "INSERT INTO org VALUES('Alice',NULL,160),('Bob','Alice',170),('Cindy','Alice',165),"
        "('Dave','Bob',180),('Emma','Bob',155),('Fred','Cindy',175),('Gail','Cindy',150),"
        "('Harry','Fred',185);"
        "CREATE TABLE edge(aa INT, bb INT);"
        "INSERT INTO edge VALUES(1,2),(2,3),(3,1),(3,4),(4,5),(5,2),(1,5);"
        "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES(1,'1'),(2,'2'),(3,'x');"
        "CREATE VIEW vt AS SELECT a FROM t;"
        "CREATE VIEW squares AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c"
        " WHERE x<4) SELECT x*x AS sq FROM c;"))
        << db.error();
  }

  // The column names, then the rows in list mode; or "error: <message>".
  // Plans as EXPLAIN QUERY PLAN's detail column.
  V Engine(const std::string& sql, bool plan = false) {
    auto db = Database::Open(path_);
    if (!db.ok()) return {"error: " + db.status().message()};
    auto st = (*db)->Prepare(plan ? "EXPLAIN QUERY PLAN " + sql : sql);
    if (!st.ok()) return {"error: " + st.status().message()};
    V out;
    if (!plan) {
      std::string names;
      for (int i = 0; i < (*st)->column_count(); ++i) {
        names += (i > 0 ? "|" : "") + std::string((*st)->column_name(i));
      }
      out.push_back(names);
    }
    for (;;) {
      auto r = (*st)->Step();
      if (!r.ok()) return {"error: " + r.status().message()};
      if (!*r) break;
      std::string line;
      for (int i = plan ? 3 : 0; i < (*st)->column_count(); ++i) {
        if (!line.empty() || (!plan && i > 0)) line += "|";
        line += std::string((*st)->column_text(i));
      }
      out.push_back(line);
    }
    return out;
  }
  V Sqlite(const std::string& sql, bool plan = false) {
    testing::SqliteDb db(path_);
    sqlite3_stmt* st = nullptr;
    const std::string text = plan ? "EXPLAIN QUERY PLAN " + sql : sql;
    if (sqlite3_prepare_v2(db.raw(), text.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      return {std::string("error: ") + sqlite3_errmsg(db.raw())};
    }
    V out;
    if (!plan) {
      std::string names;
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        names += (i > 0 ? "|" : "") + std::string(sqlite3_column_name(st, i));
      }
      out.push_back(names);
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      std::string line;
      for (int i = plan ? 3 : 0; i < sqlite3_column_count(st); ++i) {
        if (!line.empty() || (!plan && i > 0)) line += "|";
        const unsigned char* t = sqlite3_column_text(st, i);
        if (t != nullptr) line += reinterpret_cast<const char*>(t);
      }
      out.push_back(line);
    }
    if (rc != SQLITE_DONE) out = {std::string("error: ") + sqlite3_errmsg(db.raw())};
    sqlite3_finalize(st);
    return out;
  }
  void ExpectSame(const std::string& sql) { EXPECT_EQ(Engine(sql), Sqlite(sql)) << sql; }
  void ExpectSamePlan(const std::string& sql) {
    EXPECT_EQ(Engine(sql, true), Sqlite(sql, true)) << sql;
  }

  testing::TempDir dir_;
  std::string path_;
};

TEST_F(CteTest, PlainCtes) {
  for (const char* sql : {
           "WITH c AS (SELECT name, height FROM org WHERE height > 160) SELECT * FROM c",
           "WITH c(x, y) AS (SELECT name, height FROM org) SELECT * FROM c WHERE y > 165",
           "WITH c(x, y) AS (SELECT name, height FROM org) SELECT c.* FROM c ORDER BY y DESC",
           "WITH c AS (SELECT name, height*2 FROM org) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1) SELECT d.x FROM c AS d",
           "WITH a(x) AS (SELECT 1), b(y) AS (SELECT x+1 FROM a), c(z) AS (SELECT y+1 FROM b) "
           "SELECT * FROM a, b, c",
           // A CTE may name a later one of its WITH.
           "WITH a AS (SELECT * FROM b), b AS (SELECT 5 AS q) SELECT * FROM a",
           "WITH a AS (SELECT name, height FROM org WHERE height > 160) "
           "SELECT a.name, b.name FROM a JOIN a AS b ON a.height < b.height ORDER BY 1, 2",
           // Shadowing: a CTE hides a table or view, never inside a view.
           "WITH t AS (SELECT 99 AS a) SELECT * FROM t",
           "WITH t AS (SELECT 99 AS a) SELECT * FROM vt",
           "WITH vt AS (SELECT 'shadow' AS a) SELECT * FROM vt",
           "WITH a(x) AS (SELECT 1) SELECT * FROM (WITH a(x) AS (SELECT x+10 FROM a) SELECT * FROM "
           "a)",
           "WITH a(x) AS (SELECT 1) SELECT * FROM (WITH b AS (SELECT x+10 AS y FROM a) SELECT * "
           "FROM b)",
           // Everywhere a select goes.
           "SELECT * FROM (WITH c(x) AS (SELECT 5) SELECT x FROM c)",
           "SELECT (WITH c(x) AS (SELECT 5) SELECT x FROM c)",
           "SELECT 1 WHERE 5 IN (WITH c(x) AS (SELECT 5) SELECT x FROM c)",
           "SELECT EXISTS (WITH c(x) AS (SELECT 5) SELECT x FROM c)",
           "WITH c(x) AS (SELECT 5) SELECT * FROM c UNION SELECT * FROM c",
           "WITH c AS MATERIALIZED (SELECT a FROM t) SELECT * FROM c, c AS d WHERE c.a = d.a",
           "WITH c AS NOT MATERIALIZED (SELECT a FROM t) SELECT * FROM c",
           "WITH q AS (SELECT 1 AS a) SELECT * FROM q NATURAL JOIN t",
           "WITH q AS (SELECT 2 AS a) SELECT * FROM t LEFT JOIN q ON q.a = t.a",
           "WITH c AS (VALUES(1,2)) SELECT * FROM c",
           // Affinities carry through, as for a FROM subquery.
           "WITH c AS (SELECT a, b FROM t) SELECT * FROM c WHERE b = 1 OR a = '2'",
           "WITH c AS (SELECT a AS q FROM t) SELECT q, typeof(q) FROM c WHERE q='1'",
           // Correlated: the body reads the enclosing query's row.
           "SELECT name, (WITH c AS (SELECT boss FROM org o2 WHERE o2.name = org.name) "
           "SELECT * FROM c) AS b FROM org",
           "SELECT (WITH c AS (SELECT org.height AS h) SELECT (SELECT h FROM c)) AS hh FROM org",
           "SELECT name FROM org WHERE EXISTS (WITH c AS (SELECT 1 FROM org AS o "
           "WHERE o.boss = org.name) SELECT * FROM c)",
           // Unused bodies are never checked.
           "WITH c AS (SELECT * FROM nosuch) SELECT 1",
       }) {
    ExpectSame(sql);
  }
}

TEST_F(CteTest, RecursiveCtes) {
  for (const char* sql : {
           "WITH RECURSIVE cnt(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM cnt LIMIT 10) "
           "SELECT x FROM cnt",
           // RECURSIVE is optional; an outer LIMIT ends an endless recursion.
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c LIMIT 5",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
           "SELECT x FROM c WHERE x % 7 = 0 LIMIT 3",
           "WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 1 UNION ALL "
           "SELECT b, a+b, n+1 FROM fib WHERE n < 40) SELECT n, a FROM fib",
           // UNION drops rows seen before, which ends these.
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x FROM c) SELECT * FROM c",
           "WITH RECURSIVE c(x, y) AS (SELECT 1, 'a' UNION SELECT (x+1)%4, upper(y) FROM c) "
           "SELECT * FROM c",
           "WITH c(x) AS (VALUES(1),(1) UNION SELECT x%3+1 FROM c) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT 2 UNION SELECT x+1 FROM c WHERE x<3) "
           "SELECT * FROM c",
           "WITH RECURSIVE nodes(x) AS (SELECT 1 UNION SELECT bb FROM edge JOIN nodes ON aa=x) "
           "SELECT x FROM nodes",
           "WITH RECURSIVE paths(x, p) AS (SELECT 1, '1' UNION ALL SELECT bb, p||'>'||bb "
           "FROM edge JOIN paths ON aa=x WHERE length(p) < 9) SELECT * FROM paths",
           // Several recursive terms.
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3 "
           "UNION ALL SELECT x+10 FROM c WHERE x<3) SELECT * FROM c",
           // ORDER BY makes the queue a priority queue: depth- and breadth-first walks.
           "WITH RECURSIVE u(name, level) AS (VALUES('Alice', 0) UNION ALL SELECT org.name, "
           "u.level+1 FROM org JOIN u ON org.boss = u.name ORDER BY 2) "
           "SELECT substr('..........', 1, level*3) || name FROM u",
           "WITH RECURSIVE u(name, level) AS (VALUES('Alice', 0) UNION ALL SELECT org.name, "
           "u.level+1 FROM org JOIN u ON org.boss = u.name ORDER BY 2 DESC) "
           "SELECT substr('..........', 1, level*3) || name FROM u",
           "WITH RECURSIVE paths(x, p) AS (SELECT 1, '1' UNION ALL SELECT bb, p||'>'||bb "
           "FROM edge JOIN paths ON aa=x WHERE length(p) < 9 ORDER BY p DESC LIMIT 10 OFFSET 2) "
           "SELECT * FROM paths",
           "WITH RECURSIVE c(x) AS (SELECT 5 UNION ALL SELECT x-1 FROM c WHERE x > 0 "
           "ORDER BY x LIMIT 3) SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 'b' UNION ALL SELECT x||'A' FROM c WHERE length(x)<3 "
           "UNION ALL SELECT x||'a' FROM c WHERE length(x)<3 ORDER BY x COLLATE nocase) "
           "SELECT * FROM c",
           // LIMIT / OFFSET on the recursive select.
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5 LIMIT 3 OFFSET 1) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<9 LIMIT 2, 3) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3 LIMIT -1) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 0) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5 LIMIT 'a') "
           "SELECT * FROM c",
           // As an inner loop (materialised), twice, joined, grouped, in IN.
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) "
           "SELECT * FROM c AS p, c AS q",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) "
           "SELECT c.x, t.b FROM t, c WHERE t.a = c.x",
           "WITH RECURSIVE q(a) AS (SELECT 2 UNION ALL SELECT a+1 FROM q WHERE a < 4) "
           "SELECT * FROM t LEFT JOIN q ON q.a = t.a",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5) "
           "SELECT count(*), sum(x) FROM c",
           "WITH RECURSIVE w(n) AS (VALUES('Alice') UNION SELECT name FROM org, w "
           "WHERE org.boss = w.n) SELECT avg(height) FROM org WHERE org.name IN w",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT c.x+1 FROM c LEFT JOIN t ON c.x = t.a "
           "WHERE c.x < 5) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM (c JOIN t ON a = x)) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT DISTINCT x+1 FROM c WHERE x<5) SELECT * FROM c",
           "SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c "
           "WHERE x < org.height/10) SELECT count(*) FROM c) FROM org",
           "SELECT * FROM squares AS a, squares AS b WHERE a.sq < b.sq",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) "
           "SELECT typeof(x), x FROM c WHERE x = '3'",
       }) {
    ExpectSame(sql);
  }
}

// Where SQLite materialises a CTE (MATERIALIZED, read twice, a recursive
// one not run as a co-routine) its rows take the columns' affinities; a
// recursive CTE's REAL column reads as REAL everywhere.
TEST_F(CteTest, MaterialisedRowsTakeAffinities) {
  testing::SqliteDb db(path_);
  ASSERT_TRUE(db.Exec("CREATE TABLE r(c1 REAL, c2 TEXT); INSERT INTO r VALUES(7.0, '1');"))
      << db.error();
  for (const char* sql : {
           "WITH c(x) AS (SELECT CAST(c1 AS NUMERIC) FROM r) SELECT x, typeof(x) FROM c",
           "WITH c(x) AS MATERIALIZED (SELECT CAST(c1 AS NUMERIC) FROM r) "
           "SELECT x, typeof(x) FROM c",
           "WITH c(x) AS (SELECT CAST(c1 AS NUMERIC) FROM r) "
           "SELECT c.x, typeof(d.x) FROM c, c AS d",
           "WITH c(x) AS NOT MATERIALIZED (SELECT CAST(c1 AS NUMERIC) FROM r) "
           "SELECT c.x, typeof(d.x) FROM c, c AS d",
           "WITH RECURSIVE c(x, y) AS (SELECT CAST(c1 AS NUMERIC), c2 FROM r UNION ALL "
           "SELECT x, y FROM c LIMIT 2) SELECT typeof(x), typeof(y) FROM c",
           "WITH RECURSIVE c(x, y) AS (SELECT CAST(c1 AS NUMERIC), c2 FROM r UNION ALL "
           "SELECT x, y FROM c LIMIT 2) SELECT typeof(c.x), typeof(c.y) FROM r, c",
           "WITH RECURSIVE c(x, y) AS (SELECT c1, 5 FROM r UNION ALL SELECT 3, y FROM c LIMIT 2) "
           "SELECT typeof(c.x), c.x FROM c",
           "WITH RECURSIVE c(x, y) AS (SELECT c1, 5 FROM r UNION ALL SELECT 3, y FROM c LIMIT 2) "
           "SELECT typeof(c.x), c.x FROM r, c",
           "WITH c(x, y) AS MATERIALIZED (SELECT c1, c2 FROM r UNION ALL SELECT 3, 4) "
           "SELECT typeof(c.x), c.x, typeof(y) FROM c",
       }) {
    ExpectSame(sql);
  }
}

// UNION's set compares under each column's collation: the first term's
// (left to right) that has one.
TEST_F(CteTest, UnionSetUsesTheColumnsCollation) {
  testing::SqliteDb db(path_);
  ASSERT_TRUE(db.Exec("CREATE TABLE n(v TEXT COLLATE NOCASE); INSERT INTO n VALUES('a');"))
      << db.error();
  for (const char* sql : {
           "WITH RECURSIVE c(x) AS (SELECT 'a' COLLATE NOCASE UNION SELECT upper(x) FROM c) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT v FROM n UNION SELECT upper(x) FROM c) SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 'a' UNION SELECT upper(x) COLLATE NOCASE FROM c) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 'b' UNION ALL SELECT 'a' UNION SELECT upper(x) FROM c) "
           "SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT v FROM n UNION ALL SELECT x||'B' FROM c "
           "WHERE length(x) < 3 UNION ALL SELECT x||'b' FROM c WHERE length(x) < 3 ORDER BY 1) "
           "SELECT * FROM c",
       }) {
    ExpectSame(sql);
  }
}

TEST_F(CteTest, LangWithExamples) {
  ExpectSame(
      "WITH RECURSIVE xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x+0.05 FROM xaxis WHERE x<1.2),"
      " yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y+0.1 FROM yaxis WHERE y<1.0),"
      " m(iter, cx, cy, x, y) AS (SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis UNION ALL"
      "   SELECT iter+1, cx, cy, x*x-y*y + cx, 2.0*x*y + cy FROM m"
      "   WHERE (x*x + y*y) < 4.0 AND iter<28),"
      " m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),"
      " a(t) AS (SELECT group_concat( substr(' .+*#', 1+min(iter/7,4), 1), '')"
      "   FROM m2 GROUP BY cy)"
      " SELECT group_concat(rtrim(t),x'0a') FROM a");
  ExpectSame(
      "WITH RECURSIVE input(sud) AS (VALUES("
      "'53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')),"
      " digits(z, lp) AS (VALUES('1', 1) UNION ALL"
      "   SELECT CAST(lp+1 AS TEXT), lp+1 FROM digits WHERE lp<9),"
      " x(s, ind) AS (SELECT sud, instr(sud, '.') FROM input UNION ALL"
      "   SELECT substr(s, 1, ind-1) || z || substr(s, ind+1),"
      "          instr( substr(s, 1, ind-1) || z || substr(s, ind+1), '.' )"
      "   FROM x, digits AS z WHERE ind>0 AND NOT EXISTS ("
      "     SELECT 1 FROM digits AS lp"
      "     WHERE z.z = substr(s, ((ind-1)/9)*9 + lp, 1)"
      "        OR z.z = substr(s, ((ind-1)%9) + (lp-1)*9 + 1, 1)"
      "        OR z.z = substr(s, (((ind-1)/3) % 3) * 3 + ((ind-1)/27) * 27 + lp"
      "                         + ((lp-1) / 3) * 6, 1)))"
      " SELECT s FROM x WHERE ind=0");
}

TEST_F(CteTest, ErrorsAreSqlites) {
  for (const char* sql : {
           "WITH c AS (SELECT * FROM c) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 INTERSECT SELECT x+1 FROM c) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT (SELECT x+1 FROM c)) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c, c AS d) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT max(x)+1 FROM c) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3 GROUP BY x) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1), c(y) AS (SELECT 2) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1), C(y) AS (SELECT 2) SELECT 1",
           "WITH c(x,y) AS (SELECT 1) SELECT * FROM c",
           "WITH c(x,y) AS (SELECT nosuch) SELECT * FROM c",
           "WITH c(x, y) AS (SELECT 1, 2 UNION ALL SELECT x+1 FROM c WHERE x<9) SELECT * FROM c",
           "WITH RECURSIVE c(x) AS (SELECT 1, 2 UNION ALL SELECT x+1 FROM c) SELECT * FROM c",
           "WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a",
           "WITH c(x) AS (SELECT x FROM c UNION ALL SELECT 1) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < (SELECT count(*) FROM c)) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x IN (SELECT x FROM c)) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM (SELECT * FROM c)) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3 UNION SELECT 5) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5 ORDER BY y) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<5 ORDER BY x COLLATE bogus) "
           "SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM main.c) SELECT * FROM c",
           "WITH recursive AS (SELECT 1 AS r) SELECT * FROM recursive",
           "WITH c AS NOT (SELECT 1) SELECT 1",
           "WITH c AS (SELECT 1)",
           "WITH c AS (SELECT 1) CREATE TABLE z(a)",
           "WITH c AS (SELECT 1) WITH d AS (SELECT 2) SELECT 1",
           "WITH c() AS (SELECT 1) SELECT 1",
           "SELECT 1 UNION WITH d AS (SELECT 2) SELECT * FROM d",
       }) {
    ExpectSame(sql);
  }
}

TEST_F(CteTest, BeforeDml) {
  const char* script[] = {
      ("WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) "
       "INSERT INTO edge SELECT x, x*10 FROM c"),
      "WITH c(x) AS (SELECT 20) UPDATE edge SET aa = aa+100 WHERE bb IN (SELECT x FROM c)",
      "WITH c(x) AS (SELECT 30) DELETE FROM edge WHERE bb IN c",
      "INSERT INTO edge WITH c(x) AS (VALUES(7)) SELECT x, x FROM c",
      "WITH edge AS (SELECT 1) DELETE FROM edge WHERE aa = 3",
  };
  // The same statements on two copies of the database: sqlite3's and ours.
  const std::string copy = dir_.file("copy.db");
  {
    testing::SqliteDb db(path_);
    ASSERT_TRUE(db.Exec("VACUUM INTO '" + copy + "'")) << db.error();
  }
  {
    auto db = Database::Open(path_);
    ASSERT_TRUE(db.ok());
    for (const char* sql : script) ASSERT_TRUE((*db)->Exec(sql).ok()) << sql;
  }
  testing::SqliteDb theirs(copy);
  for (const char* sql : script) ASSERT_TRUE(theirs.Exec(sql)) << sql << theirs.error();
  testing::SqliteDb ours(path_);
  const std::string all = "SELECT * FROM edge ORDER BY rowid";
  EXPECT_EQ(ours.Query(all), theirs.Query(all));
  EXPECT_EQ(ours.IntegrityCheck(), "ok");
}

TEST_F(CteTest, QueryPlans) {
  for (const char* sql : {
           "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<3) SELECT * FROM c",
           "WITH c(x) AS (SELECT 1 UNION SELECT x+1 FROM c WHERE x<3 ORDER BY 1) SELECT * FROM c",
           "WITH c(x) AS (SELECT a FROM t UNION ALL SELECT x+1 FROM c WHERE x<3 "
           "UNION ALL SELECT x+2 FROM c WHERE x<3) SELECT * FROM c",
           "WITH c(x) AS MATERIALIZED (SELECT a FROM t) SELECT * FROM c",
           "WITH c(x) AS MATERIALIZED (SELECT a FROM t) SELECT * FROM c, c AS d",
       }) {
    ExpectSamePlan(sql);
  }
}

// A prepared statement re-runs its CTEs from the start each time.
TEST_F(CteTest, RerunsFromScratch) {
  auto db = Database::Open(path_);
  ASSERT_TRUE(db.ok());
  auto st = (*db)->Prepare(
      "WITH RECURSIVE c(x) AS (SELECT ?1 UNION ALL SELECT x+1 FROM c WHERE x < ?1 + 2) "
      "SELECT group_concat(x) FROM c");
  ASSERT_TRUE(st.ok()) << st.status().message();
  for (int start : {1, 10, 1}) {
    ASSERT_TRUE((*st)->Reset().ok());
    ASSERT_TRUE((*st)->BindInt(1, start).ok());
    auto r = (*st)->Step();
    ASSERT_TRUE(r.ok() && *r);
    const std::string want =
        std::to_string(start) + "," + std::to_string(start + 1) + "," + std::to_string(start + 2);
    EXPECT_EQ(std::string((*st)->column_text(0)), want);
  }
}

}  // namespace
}  // namespace engine
