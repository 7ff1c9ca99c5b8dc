// Join order: the loops in the order of least estimated cost, shown by
// EXPLAIN QUERY PLAN; plan shapes only, never a timing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/bench/join_chain.h"
#include "engine/database.h"
#include "engine/testing/query_text.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class JoinOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("j.db"));
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
  }
  void Exec(const std::string& sql) {
    Status st = db_->Exec(sql);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  V Plan(const std::string& sql) { return testing::PlanText(*db_, sql); }
  V Rows(const std::string& sql) { return testing::QueryText(*db_, sql); }
  // n tables t0..t{n-1} of ten rows; t{k}.nxt names a row of t{k+1}.
  void MakeChain(int n) { Exec(bench::ChainSchemaAndRows(n)); }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(JoinOrderTest, TheTableAnEqualityReachesGoesInside) {
  Exec(
      "CREATE TABLE a(id INTEGER PRIMARY KEY, x); CREATE TABLE b(id INTEGER PRIMARY KEY, y);"
      "CREATE TABLE c(p, q); CREATE INDEX cp ON c(p);");
  // Written with the lookup table first: b can only be reached by its key.
  EXPECT_EQ(Plan("SELECT * FROM b, a WHERE b.id = a.x"),
            (V{"SCAN a", "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)"}));
  // Already in the best order: kept.
  EXPECT_EQ(Plan("SELECT * FROM a, b WHERE b.id = a.x"),
            (V{"SCAN a", "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)"}));
  // An index prefix is as good a way in.
  EXPECT_EQ(Plan("SELECT * FROM c JOIN a ON c.p = a.x"),
            (V{"SCAN a", "SEARCH c USING INDEX cp (p=?)"}));
  // A constant key makes a one-row outer loop.
  EXPECT_EQ(Plan("SELECT * FROM a, b WHERE a.x = b.y AND b.id = 5"),
            (V{"SEARCH b USING INTEGER PRIMARY KEY (rowid=?)", "SCAN a"}));
  // No equality anywhere: FROM order.
  EXPECT_EQ(Plan("SELECT * FROM b, a WHERE a.x < b.y"), (V{"SCAN b", "SCAN a"}));
}

TEST_F(JoinOrderTest, OuterAndCrossJoinsKeepTheirOrder) {
  Exec("CREATE TABLE a(id INTEGER PRIMARY KEY, x); CREATE TABLE b(id INTEGER PRIMARY KEY, y);");
  // b is the right side of a LEFT JOIN: it stays inside a, whatever it costs.
  EXPECT_EQ(Plan("SELECT * FROM a LEFT JOIN b ON a.id = b.y"), (V{"SCAN a", "SCAN b"}));
  // CROSS JOIN is SQLite's way to fix the order by hand: b stays outside
  // though only inside could its key be used (compare the comma join).
  EXPECT_EQ(Plan("SELECT * FROM b CROSS JOIN a WHERE b.id = a.x"), (V{"SCAN b", "SCAN a"}));
  EXPECT_EQ(Plan("SELECT * FROM b, a WHERE b.id = a.x"),
            (V{"SCAN a", "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)"}));
}

TEST_F(JoinOrderTest, ReorderedJoinsGiveTheSameRows) {
  Exec(
      "CREATE TABLE a(id INTEGER PRIMARY KEY, x); CREATE TABLE b(id INTEGER PRIMARY KEY, y);"
      "INSERT INTO a VALUES (1, 2), (2, 3), (3, NULL), (4, 2);"
      "INSERT INTO b VALUES (2, 'two'), (3, 'three');");
  EXPECT_EQ(Rows("SELECT a.id, b.y FROM b, a WHERE b.id = a.x ORDER BY a.id"),
            (V{"1|two", "2|three", "4|two"}));
}

// Issue 14: a chain of 32 or 64 ten-row tables written as a scrambled FROM
// list took minutes (unrelated tables scanned one inside another). Now one
// table is scanned and every inner loop is a rowid seek, so the join runs
// 10 x 63 seeks.
TEST_F(JoinOrderTest, LongChainsSeekEveryInnerLoop) {
  MakeChain(64);
  for (int n : {32, 64}) {
    const V plan = Plan(bench::ChainQuery(n));
    ASSERT_EQ(plan.size(), static_cast<size_t>(n));
    EXPECT_EQ(plan[0], "SCAN t0") << n;
    for (int i = 1; i < n; ++i) {
      EXPECT_EQ(plan[static_cast<size_t>(i)],
                "SEARCH t" + std::to_string(i) + " USING INTEGER PRIMARY KEY (rowid=?)")
          << n;
    }
  }
  // t{k}.nxt = t{k+1}.id always matches: every row of t0 starts one chain.
  const V rows = Rows(bench::ChainQuery(64));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].substr(0, 3), "10|");
}

}  // namespace
}  // namespace engine
