// The Markdown and HTML renderings of a `perfci check` report (mode
// "check"): the gate's outcome and every reason for it first, then which
// metric kinds were compared and why, one row per benchmark and metric
// (baseline, this run, change, threshold, verdict), the oracle gap, the
// contracts, the accepted regressions, and why each changed benchmark
// changed. render_markdown and render_html hand check reports to these.
#pragma once

#include <string>

#include "perfci/model/report.h"

namespace perfci::report {

std::string render_check_markdown(const Report& report);
std::string render_check_html(const Report& report);

// "pass" (exit 0), "fail" (1) or "error" (2).
std::string check_outcome(const Report& report);

// GitHub Actions workflow commands (one "::error ..." per error and finding,
// a "::warning" when not gated), which it shows as annotations on the run
// and the pull request.
std::string github_annotations(const Report& report);

}  // namespace perfci::report
