// The HTML rendering of a report: one self-contained page (inline CSS and
// SVG, no external resource, opens offline) with the summary table and, per
// benchmark, a strip plot of A's and B's samples. A small inline script only
// checks the page (counts the drawn plots into <body data-plots-drawn>), so
// a headless browser can verify it; the plots do not depend on it.
#pragma once

#include <string>

#include "perfci/model/report.h"

namespace perfci::report {

std::string render_html(const Report& report);

}  // namespace perfci::report
