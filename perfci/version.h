// Versions that every perfci output carries, so a reader can tell which
// tool and which schema produced a file.
#pragma once

namespace perfci {

inline constexpr const char* kToolVersion = "0.1.0";
inline constexpr const char* kReportSchema = "perfci.report/1";
inline constexpr const char* kResultsSchema = "perfci.results/1";
inline constexpr const char* kBaselineSchema = "perfci.baseline/1";

const char* tool_version();

}  // namespace perfci
