// How check, compare, ab, aa and run keep their run in the results database
// (issue 16), after their reports are written: which database (--history,
// --no-history, perfci.json's history.database), the record with its
// parents and branch, and the one line that says what was stored. A failure
// to record is perfci::Error (exit 2), thrown after the reports exist, so
// nothing measured is lost.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "perfci/app/common_flags.h"
#include "perfci/config/config.h"
#include "perfci/history/run_record.h"
#include "perfci/model/bisect_report.h"
#include "perfci/model/report.h"
#include "perfci/model/results.h"

namespace perfci::app {

// none with --no-history; --history PATH (relative to the current folder);
// else perfci.json's history.database (relative to perfci.json's folder);
// else none: nothing is recorded.
std::optional<std::filesystem::path> recording_database(const CommonFlags& flags,
                                                        const std::optional<Config>& config);

// The branch measured: GITHUB_HEAD_REF (a pull request's head) or
// GITHUB_REF_NAME when set (CI checks out a detached HEAD), else
// `git symbolic-ref --short -q HEAD` in `repo`; "" when detached or outside git.
std::string current_branch(const std::filesystem::path& repo);

// Fills the parents and (when empty) the branch from `repo`, stores the run
// and prints "history: recorded run N in <db> (K points)" on stderr, or that
// the same run was there already. Throws perfci::Error.
void record_run(history::RunRecord run, const std::filesystem::path& db,
                const std::filesystem::path& repo);

// A report, when a database is chosen: record_from_report, then record_run.
// An interrupted run is not recorded (it says so): its points would be a
// part of the suite passed off as the whole.
void record_report(const CommonFlags& flags, const std::optional<Config>& config,
                   const Report& report, const std::string& command,
                   const std::filesystem::path& repo);

// `perfci run`'s results, at the commit of the git repository that holds
// the binary (HEAD, dirty when its tree is; none outside git).
void record_results(const CommonFlags& flags, const std::optional<Config>& config,
                    const RunResults& results);

// A bisect's measured commits (one run); `binaries` maps a commit to the
// binary measured there, whose profile each side gets.
void record_bisect(const CommonFlags& flags, const std::optional<Config>& config,
                   const BisectReport& report, const std::map<std::string, std::string>& binaries,
                   const std::filesystem::path& repo);

// The profile id (baseline/profile.h) of a measured binary, with the build
// type of the nearest CMakeCache.txt above it, so that runs of ab, compare,
// run and bisect join the series of checks of the same toolchain; "" when
// the binary cannot be read any more.
std::string profile_of_binary(const std::string& binary);

}  // namespace perfci::app
