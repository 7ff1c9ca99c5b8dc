// The window stage of a SELECT core (planner/window_plan.h): the inner
// select's rows in, the same rows out, widened by one column per window
// function call and in the order of the last window sorted.
#pragma once

#include "engine/exec/row_store.h"
#include "engine/planner/plan.h"
#include "engine/status.h"

namespace engine::exec {

class ExecContext;

Status RunWindowStage(ExecContext* ctx, const plan::WindowStage& stage, const RowStore& in,
                      RowStore* out);

}  // namespace engine::exec
