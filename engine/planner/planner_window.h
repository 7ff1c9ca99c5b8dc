// Planner state of one SELECT core with window functions while it is bound
// (planner_window.cc); see window_plan.h for the plan it becomes.
#pragma once

#include <vector>

#include "engine/planner/planner.h"

namespace engine::plan {

// A window definition with its base windows applied, as written in the AST.
struct ResolvedWindow {
  std::vector<sql::ExprId> partition;
  std::vector<sql::OrderingTerm> order;
  const sql::WindowDef* frame = nullptr;  // the definition holding the frame; null: default
  uint32_t offset = 0;
};

struct Planner::WindowBinding {
  const Scope* scope = nullptr;           // the core's own scope: the only one rerouted
  const sql::SelectCore* core = nullptr;  // for its WINDOW clause
  int src = -1;                           // the source the core reads the widened rows from
  int stage = -1;                         // Program::windows
  std::vector<int32_t> inner;             // nodes of the inner row, by column
  std::vector<int32_t> call_refs;         // per call: the node reading its result
  std::vector<ResolvedWindow> specs;      // parallel to the stage's specs
};

}  // namespace engine::plan
