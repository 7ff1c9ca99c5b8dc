// The planner's choices, seen through EXPLAIN QUERY PLAN in SQLite's words.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("p.db"));
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(db_->Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL, d, e, f);"
                          "CREATE INDEX tab ON t(a, b);"
                          "CREATE TABLE u(k INTEGER PRIMARY KEY, v TEXT);"
                          "CREATE TABLE w(x, y, z, PRIMARY KEY(x, y))")
                    .ok());
  }
  V Plan(const std::string& sql) {
    V out;
    auto st = db_->Prepare("EXPLAIN QUERY PLAN " + sql);
    EXPECT_TRUE(st.ok()) << st.status().ToString();
    if (!st.ok()) return out;
    while (true) {
      auto r = (*st)->Step();
      if (!r.ok() || !*r) break;
      out.emplace_back((*st)->column_text(3));
    }
    return out;
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(PlannerTest, RowidSeeks) {
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id = ?"), V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE ? = id"), V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id BETWEEN ? AND ? + 2000"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id > 5"), V{"SEARCH t USING INTEGER PRIMARY KEY (rowid>?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE rowid < 5"), V{"SEARCH t USING INTEGER PRIMARY KEY (rowid<?)"});
}

TEST_F(PlannerTest, CompositeIndexLeftmostPrefix) {
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 1 AND b = 'x'"), V{"SEARCH t USING INDEX tab (a=? AND b=?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 1 AND b > 'x'"), V{"SEARCH t USING INDEX tab (a=? AND b>?)"});
  EXPECT_EQ(Plan("SELECT b FROM t WHERE a = 1"), V{"SEARCH t USING COVERING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT id FROM t WHERE a BETWEEN 1 AND 5"),
            V{"SEARCH t USING COVERING INDEX tab (a>? AND a<?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE b = 'x'"), V{"SCAN t"});
  EXPECT_EQ(Plan("SELECT z FROM w WHERE x = 1 AND y = 2"),
            V{"SEARCH w USING INDEX sqlite_autoindex_w_1 (x=? AND y=?)"});
}

TEST_F(PlannerTest, Joins) {
  // As sqlite3 3.40 plans it: t's index holds every column t contributes.
  EXPECT_EQ(Plan("SELECT t.id, u.v FROM t JOIN u ON u.k = t.a"),
            (V{"SCAN t USING COVERING INDEX tab", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Plan("SELECT t.c, u.v FROM t LEFT JOIN u ON u.k = t.a"),
            (V{"SCAN t", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Plan("SELECT * FROM u, t WHERE t.a = u.k"),
            (V{"SCAN u", "SEARCH t USING INDEX tab (a=?)"}));
}

TEST_F(PlannerTest, OrderByAndGrouping) {
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY id DESC LIMIT 3"), V{"SCAN t"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE a = 3 ORDER BY b"), V{"SEARCH t USING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY a, b"), V{"SCAN t USING INDEX tab"});
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY c"), (V{"SCAN t", "USE TEMP B-TREE FOR ORDER BY"}));
  EXPECT_EQ(Plan("SELECT d, count(*) FROM t GROUP BY d"), (V{"SCAN t", "USE TEMP B-TREE FOR GROUP BY"}));
  EXPECT_EQ(Plan("SELECT DISTINCT d FROM t"), (V{"SCAN t", "USE TEMP B-TREE FOR DISTINCT"}));
}

TEST_F(PlannerTest, LimitStopsEarlyAndPlansAreReused) {
  ASSERT_TRUE(db_->Exec("BEGIN").ok());
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(db_->Exec("INSERT INTO t(a, b) VALUES (" + std::to_string(i % 10) + ", 'v')").ok());
  }
  ASSERT_TRUE(db_->Exec("COMMIT").ok());
  auto st = db_->Prepare("SELECT id FROM t ORDER BY id DESC LIMIT ?");
  ASSERT_TRUE(st.ok());
  for (int limit : {1, 3, 0}) {
    ASSERT_TRUE((*st)->BindInt(1, limit).ok());
    std::vector<int64_t> ids;
    while (true) {
      auto r = (*st)->Step();
      ASSERT_TRUE(r.ok());
      if (!*r) break;
      ids.push_back((*st)->column_int(0));
    }
    ASSERT_EQ(ids.size(), static_cast<size_t>(limit));
    if (limit > 0) {
      EXPECT_EQ(ids[0], 500);
    }
    ASSERT_TRUE((*st)->Reset().ok());
  }
}

}  // namespace
}  // namespace engine
