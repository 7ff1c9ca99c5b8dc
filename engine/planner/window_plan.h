// The compiled window stage of a SELECT core (SQLite's windowfunctions.html).
//
// A core with window functions runs in two steps. Its FROM / WHERE /
// GROUP BY / HAVING part is a select of its own (the "inner" select) whose
// rows hold every value the window stage needs: the functions' arguments,
// the PARTITION BY and ORDER BY terms, and each column or aggregate the
// result expressions read. The core itself then reads those rows as a
// materialised FROM item (Access::kSubquery with Level::window set): the
// stage sorts them once per distinct window, appends one column per window
// function call, and the core's result expressions, DISTINCT, ORDER BY and
// LIMIT run over the widened rows as over any subquery. A query without
// window functions never meets any of this.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/func/aggregates.h"
#include "engine/func/collation.h"
#include "engine/func/window_functions.h"
#include "engine/sql/ast.h"

namespace engine::plan {

struct WindowOrderKey {
  int column = 0;  // in the inner row
  bool desc = false;
  bool nulls_first = true;
  func::Collation coll = func::Collation::kBinary;
};

// One resolved window definition; calls with equal definitions share it.
struct WindowSpec {
  std::vector<int> partition;  // inner-row columns
  std::vector<func::Collation> partition_coll;
  std::vector<WindowOrderKey> order;
  sql::FrameUnit unit = sql::FrameUnit::kRange;
  sql::FrameBound start = sql::FrameBound::kUnboundedPreceding;
  sql::FrameBound end = sql::FrameBound::kCurrentRow;
  int32_t start_expr = -1;  // constant nodes, evaluated once per execution
  int32_t end_expr = -1;
  sql::FrameExclude exclude = sql::FrameExclude::kNoOthers;
  // An EXCLUDE clause: aggregates are computed afresh for every row, as
  // SQLite does (so a sum() that once saw a REAL can be an INTEGER again).
  bool row_by_row = false;
};

struct WindowCall {
  bool aggregate = false;  // an aggregate used with OVER: `agg`, else `fn`
  func::AggregateKind agg = func::AggregateKind::kCount;
  func::WindowFunction fn = func::WindowFunction::kRowNumber;
  int args[3] = {-1, -1, -1};  // inner-row columns (a FILTER is folded into args[0])
  int nargs = 0;
  int spec = 0;                                     // WindowStage::specs
  func::Collation coll = func::Collation::kBinary;  // min() and max() compare under it
};

struct WindowStage {
  int inner_width = 0;  // columns of the inner select's rows
  std::vector<WindowSpec> specs;
  // Specs in the order the stage sorts by them (SQLite's: the last window
  // written first); the rows come out in the order of the last one sorted.
  std::vector<int> spec_order;
  std::vector<WindowCall> calls;  // call i fills column inner_width + i
};

}  // namespace engine::plan
