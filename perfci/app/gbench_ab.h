// `perfci ab --a-json A.json --b-json B.json`: the A/B of two Google
// Benchmark JSON files (--benchmark_out, or perfci run's output) that were
// measured apart. Nothing pairs their samples and nothing interleaved them,
// so the comparison is the unpaired one (stats::compare_unpaired: each
// repetition a sample, rank-sum test, Hodges–Lehmann interval), and the
// report says so (run.pairing "unpaired").
#pragma once

#include <string>

#include "perfci/app/ab_session.h"
#include "perfci/meters/gbench_output.h"
#include "perfci/model/report.h"

namespace perfci::app {

// The report of two parsed files. Benchmarks are matched by name (run_name);
// wall real and CPU time are compared; one that failed on either side is a
// failed benchmark; one skipped by the benchmark, missing from a side or
// with a time that is not positive is left out with a warning. `flags`
// gives the seed, --config's thresholds (metrics.wall) and perfci.json's
// suite-independent settings. Throws perfci::Error when the files share no
// benchmark.
Report gbench_ab_report(const GbenchFile& a, const std::string& a_path, const GbenchFile& b,
                        const std::string& b_path, const AbFlags& flags, const char* command);

// Reads both files, writes the report and its renderings as run_ab_session
// does, and returns the same exit codes (0, 1 a regression, 2 a failed
// benchmark). Throws perfci::Error on unreadable or malformed files.
int run_gbench_ab_session(const AbFlags& flags, const std::string& a_json,
                          const std::string& b_json, const char* command);

}  // namespace perfci::app
