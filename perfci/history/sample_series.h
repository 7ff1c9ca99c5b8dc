// Series for the renderings' tests: a deterministic Ir series with one
// +0.3% step and a baseline, and a noisy wall series with a 5% step, along
// a made-up linear history. Test-only (linked into tests, not the library).
#pragma once

#include <vector>

#include "perfci/history/series.h"

namespace perfci::history::testing {

std::vector<CommitSubject> sample_history(int commits);
// Two series: "engine/read_join callgrind ir" and "engine/read_join wall real_time_ns".
std::vector<Series> sample_series();

}  // namespace perfci::history::testing
