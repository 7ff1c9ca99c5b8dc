// Test data shared by the baseline and check suites: a fixed profile, run
// results with chosen callgrind and wall values, and a baseline made of them.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "perfci/baseline/baseline.h"

namespace perfci::baseline::fixtures {

Profile sample_profile();

struct Values {
  std::optional<double> ir;    // callgrind Ir per iteration
  std::optional<double> wall;  // real and cpu time, ns
};

// One benchmark per entry, in name order, with the given metrics.
RunResults sample_results(const std::map<std::string, Values>& benchmarks);

Baseline sample_baseline(const std::map<std::string, Values>& benchmarks);

}  // namespace perfci::baseline::fixtures
