// A Google Benchmark JSON file rendered for `perfci report gb.json`: what it
// measured, one row per benchmark (repetitions, median real and CPU time
// with their range, iterations, failures and skips), and what its context
// says about how it was measured. No verdict: one file compares nothing.
#pragma once

#include <string>

#include "perfci/meters/gbench_output.h"

namespace perfci::report {

std::string render_gbench_markdown(const GbenchFile& file, const std::string& path);
std::string render_gbench_html(const GbenchFile& file, const std::string& path);

}  // namespace perfci::report
