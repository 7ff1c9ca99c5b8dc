// What a partial (`--shard K/N`) or merged (`perfci merge`) report covers,
// said near the top of every rendering: a part's "pass" is only its share
// of the suite, and a merged report names the parts it was joined from.
#pragma once

#include <string>

#include "perfci/model/report.h"

namespace perfci::report {

// " (shard 2/3)" for a part, "" otherwise: for the headline.
std::string shard_headline(const Report& report);

// A paragraph (and, merged, a table of the parts: machine, outcome,
// benchmarks, expected and actual seconds); "" for a whole run.
std::string shard_markdown(const Report& report);
std::string shard_html(const Report& report);

}  // namespace perfci::report
