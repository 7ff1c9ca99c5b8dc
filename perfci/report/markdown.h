// The Markdown rendering of a report: fit for a pull-request comment or
// $GITHUB_STEP_SUMMARY. Regressions first, with the ratio, its interval,
// the verdict and the other metrics' changes beside the wall time; then why
// each changed benchmark changed, failures, the oracle gap and the noise.
#pragma once

#include <string>

#include "perfci/model/report.h"

namespace perfci::report {

std::string render_markdown(const Report& report);

}  // namespace perfci::report
