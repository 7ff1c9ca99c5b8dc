// The Markdown of a `perfci bisect` report: the outcome and the first bad
// commit first, its change against its parent and why (the per-symbol
// table of report/format.h), then every commit of the range with what its
// measurement said.
#pragma once

#include <string>

#include "perfci/model/bisect_report.h"

namespace perfci::report {

std::string render_bisect_markdown(const BisectReport& report);

}  // namespace perfci::report
