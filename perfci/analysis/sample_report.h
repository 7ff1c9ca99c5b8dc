// A synthetic but complete A/B run for the report tests: a regressed
// benchmark with callgrind details and a contract that broke, an unchanged
// one, a failed one, and an engine/sqlite pair for the oracle gap.
#pragma once

#include "perfci/model/report.h"

namespace perfci::analysis::testing {

AbRun sample_run();
Report sample_report();

}  // namespace perfci::analysis::testing
