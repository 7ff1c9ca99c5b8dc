#include "engine/shell/query_plan.h"

#include <gtest/gtest.h>

namespace engine::shell {
namespace {

TEST(RenderQueryPlan, DrawsSiblingsAndChildrenAsSqlite3Does) {
  // sqlite3's own drawing of: SELECT ... FROM a, (SELECT ... UNION ...) ORDER BY
  const std::vector<QueryPlanRow> rows = {
      {2, 0, "MATERIALIZE s"}, {3, 2, "COMPOUND QUERY"}, {4, 3, "LEFT-MOST SUBQUERY"},
      {5, 4, "SCAN b"},        {6, 3, "UNION ALL"},      {7, 6, "SCAN c"},
      {8, 0, "SCAN a"},        {9, 0, "SCAN s"},         {10, 0, "USE TEMP B-TREE FOR ORDER BY"},
  };
  EXPECT_EQ(RenderQueryPlan(rows),
            "QUERY PLAN\n"
            "|--MATERIALIZE s\n"
            "|  `--COMPOUND QUERY\n"
            "|     |--LEFT-MOST SUBQUERY\n"
            "|     |  `--SCAN b\n"
            "|     `--UNION ALL\n"
            "|        `--SCAN c\n"
            "|--SCAN a\n"
            "|--SCAN s\n"
            "`--USE TEMP B-TREE FOR ORDER BY\n");
}

TEST(RenderQueryPlan, OneRowAndNone) {
  EXPECT_EQ(RenderQueryPlan({{2, 0, "SCAN t"}}), "QUERY PLAN\n`--SCAN t\n");
  EXPECT_EQ(RenderQueryPlan({}), "");
}

TEST(RenderQueryPlan, ARowThatIsItsOwnParentEndsTheWalk) {
  EXPECT_EQ(RenderQueryPlan({{2, 0, "SCAN t"}, {3, 3, "loop"}, {2, 2, "self"}}),
            "QUERY PLAN\n`--SCAN t\n");
}

}  // namespace
}  // namespace engine::shell
