// How `perfci check` and `perfci merge` leave a check report behind: the
// reports folder (<stem>.json, the commit's record, and <latest>.{json,md,
// html}, what CI shows), and the words on the terminal (the Markdown unless
// quiet, GitHub annotations, every error, finding and "not gated" reason,
// one summary line). One writer, so that a merged report lands exactly where
// and as an unsharded check's would.
#pragma once

#include <filesystem>
#include <string>

#include "perfci/model/report.h"

namespace perfci::app {

// "<commit>" or "<commit>-dirty", "no-commit" outside git: the name of a
// commit's report.
std::string commit_stem(const std::string& commit, bool dirty);

// Creates `out` and writes the four files; returns the Markdown. Throws
// perfci::Error when the folder cannot be created.
std::string write_report_folder(const Report& report, const std::filesystem::path& out,
                                const std::string& stem, const std::string& latest);

// The terminal's part of a check report (mode "check"); `where` names the
// files written. Returns the report's exit code.
int print_check_outcome(const Report& report, const char* command, const std::string& md,
                        bool quiet, bool github, const std::string& where);

}  // namespace perfci::app
