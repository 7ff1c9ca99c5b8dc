// EXPLAIN QUERY PLAN as sqlite3's shell prints it: "QUERY PLAN" and a tree
// drawn with "|--" (a node with a later sibling) and "`--" (the last one),
// children indented under "|  " or "   ". The rows come from the statement
// (id, parent, notused, detail).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace engine::shell {

struct QueryPlanRow {
  int64_t id = 0;
  int64_t parent = 0;
  std::string detail;
};

std::string RenderQueryPlan(const std::vector<QueryPlanRow>& rows);

}  // namespace engine::shell
