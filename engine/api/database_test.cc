#include "engine/database.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("t.db");
    auto db = Database::Open(path_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
  }

  void Exec(const std::string& sql) {
    Status st = db_->Exec(sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }

  // Rows as "a|b|c" lines, in the order the engine returns them.
  std::vector<std::string> Rows(const std::string& sql) {
    auto stmt = db_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
    std::vector<std::string> out;
    if (!stmt.ok()) return out;
    for (;;) {
      auto r = (*stmt)->Step();
      EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
      if (!r.ok() || !*r) break;
      std::string line;
      for (int i = 0; i < (*stmt)->column_count(); ++i) {
        if (i > 0) line += "|";
        line += std::string((*stmt)->column_text(i));
      }
      out.push_back(line);
    }
    return out;
  }

  std::string Error(const std::string& sql) {
    Status st = db_->Exec(sql);
    return st.ok() ? "" : st.message();
  }

  std::vector<std::string> Plan(const std::string& sql) {
    std::vector<std::string> out;
    for (const std::string& row : Rows("EXPLAIN QUERY PLAN " + sql)) {
      out.push_back(row.substr(row.rfind('|') + 1));
    }
    return out;
  }

  testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<Database> db_;
};

using V = std::vector<std::string>;

TEST_F(DatabaseTest, CreateInsertSelect) {
  Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL)");
  Exec("INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', 2), (3, NULL, NULL)");
  EXPECT_EQ(db_->changes(), 3);
  EXPECT_EQ(db_->last_insert_rowid(), 3);
  EXPECT_EQ(Rows("SELECT * FROM t"), (V{"1|x|1.5", "2|y|2.0", "3||"}));
  EXPECT_EQ(Rows("SELECT a, id FROM t WHERE id = 2"), (V{"y|2"}));
  EXPECT_EQ(Rows("SELECT count(*), sum(b), avg(id) FROM t"), (V{"3|3.5|2.0"}));
}

TEST_F(DatabaseTest, PreparedStatementReuse) {
  Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)");
  auto ins = db_->Prepare("INSERT INTO t(v) VALUES (?)");
  ASSERT_TRUE(ins.ok());
  ASSERT_EQ((*ins)->parameter_count(), 1);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE((*ins)->BindInt(1, i * 10).ok());
    auto r = (*ins)->Step();
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_TRUE((*ins)->Reset().ok());
  }
  auto q = db_->Prepare("SELECT v FROM t WHERE id = ?");
  ASSERT_TRUE(q.ok());
  for (int i = 1; i <= 100; i += 7) {
    ASSERT_TRUE((*q)->BindInt(1, i).ok());
    auto r = (*q)->Step();
    ASSERT_TRUE(r.ok() && *r);
    EXPECT_EQ((*q)->column_int(0), (i - 1) * 10);
    auto done = (*q)->Step();
    ASSERT_TRUE(done.ok());
    EXPECT_FALSE(*done);
    ASSERT_TRUE((*q)->Reset().ok());
  }
  EXPECT_TRUE((*q)->BindInt(2, 1).code() == Status::Code::kRange);
}

TEST_F(DatabaseTest, JoinsAndSubqueries) {
  Exec("CREATE TABLE d(id INTEGER PRIMARY KEY, bucket INTEGER)");
  Exec("CREATE TABLE l(code INTEGER PRIMARY KEY, label TEXT)");
  Exec("INSERT INTO d VALUES (1, 10), (2, 20), (3, 30), (4, NULL)");
  Exec("INSERT INTO l VALUES (10, 'ten'), (20, 'twenty')");
  EXPECT_EQ(Rows("SELECT d.id, l.label FROM d JOIN l ON l.code = d.bucket ORDER BY d.id"),
            (V{"1|ten", "2|twenty"}));
  EXPECT_EQ(Rows("SELECT d.id, l.label FROM d LEFT JOIN l ON l.code = d.bucket ORDER BY 1"),
            (V{"1|ten", "2|twenty", "3|", "4|"}));
  EXPECT_EQ(Rows("SELECT id FROM d WHERE bucket IN (SELECT code FROM l) ORDER BY id DESC"),
            (V{"2", "1"}));
  EXPECT_EQ(Rows("SELECT id, (SELECT label FROM l WHERE code = d.bucket) FROM d WHERE "
                 "EXISTS (SELECT 1 FROM l WHERE l.code = d.bucket)"),
            (V{"1|ten", "2|twenty"}));
  EXPECT_EQ(Plan("SELECT d.id, l.label FROM d JOIN l ON l.code = d.bucket"),
            (V{"SCAN d", "SEARCH l USING INTEGER PRIMARY KEY (rowid=?)"}));
}

TEST_F(DatabaseTest, GroupByHavingOrderLimit) {
  Exec("CREATE TABLE t(g TEXT, v INTEGER)");
  Exec("INSERT INTO t VALUES ('a', 1), ('b', 2), ('a', 3), ('c', NULL), ('b', 5)");
  EXPECT_EQ(Rows("SELECT g, count(v), sum(v) FROM t GROUP BY g HAVING count(*) > 1 ORDER BY g"),
            (V{"a|2|4", "b|2|7"}));
  EXPECT_EQ(Rows("SELECT v FROM t ORDER BY v DESC LIMIT 2 OFFSET 1"), (V{"3", "2"}));
  EXPECT_EQ(Rows("SELECT DISTINCT g FROM t ORDER BY 1"), (V{"a", "b", "c"}));
  EXPECT_EQ(Rows("SELECT g FROM t WHERE v < 3 UNION SELECT g FROM t WHERE v > 4"), (V{"a", "b"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE 0"), (V{"0"}));
  // An aggregating subquery inside an aggregate query keeps the outer group.
  EXPECT_EQ(Rows("SELECT g, (SELECT max(v) FROM t), count(*), "
                 "(SELECT count(*) FROM t AS u WHERE u.g = t.g) FROM t GROUP BY g ORDER BY g"),
            (V{"a|5|2|2", "b|5|2|2", "c|5|1|1"}));
}

TEST_F(DatabaseTest, UpdateDeleteAndIndexes) {
  Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER, s TEXT UNIQUE)");
  Exec("CREATE INDEX tx ON t(x)");
  Exec("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
  Exec("UPDATE t SET x = x + 1 WHERE id >= 2");
  EXPECT_EQ(db_->changes(), 2);
  EXPECT_EQ(Rows("SELECT id FROM t WHERE x = 21"), (V{"2"}));
  EXPECT_EQ(Rows("SELECT id FROM t WHERE x BETWEEN 11 AND 31 ORDER BY id"), (V{"2", "3"}));
  Exec("DELETE FROM t WHERE x = 21");
  EXPECT_EQ(Rows("SELECT id, x, s FROM t ORDER BY id"), (V{"1|10|a", "3|31|c"}));
  EXPECT_EQ(Error("INSERT INTO t VALUES (4, 1, 'a')"), "UNIQUE constraint failed: t.s");
  EXPECT_EQ(Error("INSERT INTO t VALUES (1, 1, 'z')"), "UNIQUE constraint failed: t.id");
  Exec("INSERT OR REPLACE INTO t VALUES (5, 50, 'a')");
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id"), (V{"3", "5"}));
  Exec("INSERT OR IGNORE INTO t VALUES (6, 60, 'c')");
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (V{"2"}));
  EXPECT_EQ(Plan("SELECT * FROM t WHERE x = ?"), (V{"SEARCH t USING INDEX tx (x=?)"}));
  EXPECT_EQ(Plan("SELECT id FROM t WHERE x > ? AND x < ?"),
            (V{"SEARCH t USING COVERING INDEX tx (x>? AND x<?)"}));
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id BETWEEN ? AND ?"),
            (V{"SEARCH t USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"}));
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id = ?"),
            (V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Rows("SELECT id FROM t WHERE id IN (5, 3, '3', 9, 3.0, NULL)"), (V{"3", "5"}));
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id IN (?, ?)"),
            (V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY s"), (V{"SCAN t USING INDEX sqlite_autoindex_t_1"}));
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY x+1"), (V{"SCAN t", "USE TEMP B-TREE FOR ORDER BY"}));

  testing::SqliteDb oracle(path_);
  EXPECT_EQ(oracle.IntegrityCheck(), "ok");
}

TEST_F(DatabaseTest, NotNullAndErrors) {
  Exec("CREATE TABLE t(a INTEGER NOT NULL, b)");
  EXPECT_EQ(Error("INSERT INTO t VALUES (NULL, 1)"), "NOT NULL constraint failed: t.a");
  EXPECT_EQ(Error("SELECT * FROM nope"), "no such table: nope");
  EXPECT_EQ(Error("SELECT c FROM t"), "no such column: c");
  EXPECT_EQ(Error("SELECT FROM"), "near \"FROM\": syntax error");
  EXPECT_EQ(Error("SELECT count(*) FROM t WHERE sum(a) > 1"), "misuse of aggregate function sum()");
  EXPECT_EQ(Error("SELECT nosuch(a) FROM t"), "no such function: nosuch");
  EXPECT_EQ(Error("CREATE TABLE t(x)"), "table t already exists");
  EXPECT_EQ(Error("INSERT INTO t VALUES (1)"), "table t has 2 columns but 1 values were supplied");
  EXPECT_EQ(Error("SELECT 1 UNION SELECT 1, 2"),
            "SELECTs to the left and right of UNION do not have the same number of result columns");
}

TEST_F(DatabaseTest, TransactionsAndViews) {
  Exec("CREATE TABLE t(a)");
  Exec("BEGIN");
  EXPECT_TRUE(db_->in_transaction());
  Exec("INSERT INTO t VALUES (1), (2)");
  Exec("ROLLBACK");
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (V{"0"}));
  Exec("BEGIN; INSERT INTO t VALUES (7); COMMIT");
  EXPECT_FALSE(db_->in_transaction());
  Exec("CREATE VIEW v AS SELECT a * 2 AS d FROM t");
  EXPECT_EQ(Rows("SELECT d FROM v"), (V{"14"}));
  Exec("DROP VIEW v");
  Exec("DROP TABLE t");
  EXPECT_EQ(Error("SELECT * FROM t"), "no such table: t");
}

}  // namespace
}  // namespace engine
