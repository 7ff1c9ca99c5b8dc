#include "engine/func/window_functions.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace engine::func {
namespace {

TEST(WindowFunctionsTest, NamesAndArities) {
  EXPECT_EQ(FindWindowFunction("Row_Number"), WindowFunction::kRowNumber);
  EXPECT_EQ(FindWindowFunction("NTH_VALUE"), WindowFunction::kNthValue);
  EXPECT_FALSE(FindWindowFunction("sum").has_value());
  EXPECT_TRUE(WindowArityOk(WindowFunction::kRank, 0));
  EXPECT_FALSE(WindowArityOk(WindowFunction::kRank, 1));
  EXPECT_TRUE(WindowArityOk(WindowFunction::kLag, 3));
  EXPECT_FALSE(WindowArityOk(WindowFunction::kLead, 4));
  EXPECT_FALSE(WindowArityOk(WindowFunction::kNthValue, 1));
  EXPECT_TRUE(UsesFrame(WindowFunction::kLastValue));
  EXPECT_FALSE(UsesFrame(WindowFunction::kNtile));
}

TEST(WindowFunctionsTest, NthValueIndex) {
  EXPECT_EQ(NthValueIndex(Value::Integer(3)), 3);
  EXPECT_EQ(NthValueIndex(Value::Real(2.0)), 2);
  EXPECT_FALSE(NthValueIndex(Value::Real(2.5)).has_value());
  EXPECT_FALSE(NthValueIndex(Value::Text("2")).has_value());
  EXPECT_FALSE(NthValueIndex(Value::Null()).has_value());
}

// Every bucket of ntile(n) over partitions of 1..30 rows, as SQLite numbers them.
TEST(WindowFunctionsTest, NtileMatchesSqlite) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE n(p, i); WITH RECURSIVE s(p, i) AS (SELECT 1, 0 UNION ALL "
                         "SELECT p + (i + 1 >= p), CASE WHEN i + 1 >= p THEN 0 ELSE i + 1 END "
                         "FROM s WHERE p <= 30) INSERT INTO n SELECT * FROM s WHERE p <= 30",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  for (int buckets : {1, 2, 3, 4, 7, 30, 31}) {
    const std::string sql = "SELECT p, i, ntile(" + std::to_string(buckets) +
                            ") OVER (PARTITION BY p ORDER BY i) FROM n";
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    int rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
      const int64_t p = sqlite3_column_int64(st, 0), i = sqlite3_column_int64(st, 1);
      EXPECT_EQ(NtileBucket(i, p, buckets), sqlite3_column_int64(st, 2))
          << "row " << i << " of " << p << ", " << buckets << " buckets";
      ++rows;
    }
    EXPECT_EQ(rows, 30 * 31 / 2);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
}

}  // namespace
}  // namespace engine::func
