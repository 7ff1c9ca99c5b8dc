// A core with window functions becomes a materialised inner select read by
// the window stage; the inner select keeps every access path a plain query
// would get (seeks, covering indexes), and ORDER BY sorts the stage's rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/query_text.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class PlannerWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("p.db"));
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(db_->Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);"
                          "CREATE INDEX tab ON t(a, b)")
                    .ok());
  }
  V Plan(const std::string& sql) { return testing::PlanText(*db_, sql); }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(PlannerWindowTest, InnerSelectKeepsItsAccessPath) {
  EXPECT_EQ(
      Plan("SELECT a, row_number() OVER (ORDER BY b) FROM t WHERE a = 1"),
      (V{"MATERIALIZE (subquery)", "SEARCH t USING COVERING INDEX tab (a=?)", "SCAN (subquery)"}));
  EXPECT_EQ(Plan("SELECT b, sum(c) OVER (PARTITION BY b) FROM t WHERE a = 1 ORDER BY 2"),
            (V{"MATERIALIZE (subquery)", "SEARCH t USING INDEX tab (a=?)", "SCAN (subquery)",
               "USE TEMP B-TREE FOR ORDER BY"}));
  // The grouped part plans as the same query without its window would.
  V grouped = Plan("SELECT a, count(*) FROM t GROUP BY a");
  grouped.insert(grouped.begin(), "MATERIALIZE (subquery)");
  grouped.push_back("SCAN (subquery)");
  EXPECT_EQ(Plan("SELECT a, count(*), rank() OVER (ORDER BY count(*)) FROM t GROUP BY a"), grouped);
}

TEST_F(PlannerWindowTest, QueriesWithoutWindowsAreUnchanged) {
  EXPECT_EQ(Plan("SELECT a, sum(c) FILTER (WHERE c > 0) FROM t WHERE a = 1"),
            V{"SEARCH t USING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT over, rows FROM (SELECT 1 AS over, 2 AS rows)"),
            (V{"MATERIALIZE (subquery)", "SCAN CONSTANT ROW", "SCAN (subquery)"}));
}

}  // namespace
}  // namespace engine
