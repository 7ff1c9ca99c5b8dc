// EXPLAIN QUERY PLAN in SQLite's words: one row per plan step, each with its
// id, its parent's id and the detail text ("SEARCH t USING INTEGER PRIMARY
// KEY (rowid=?)", "USE TEMP B-TREE FOR ORDER BY", ...).
#pragma once

#include <string>
#include <vector>

#include "engine/planner/plan.h"

namespace engine::plan {

struct ExplainRow {
  int id = 0;
  int parent = 0;
  std::string detail;
};

std::vector<ExplainRow> ExplainQueryPlan(const Program& prog);
// The detail text of one FROM item's access path.
std::string DescribeLevel(const Level& level);

}  // namespace engine::plan
