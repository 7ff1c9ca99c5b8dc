// A results record as Google Benchmark's own JSON (--benchmark_out_format=
// json): what `perfci run --format gbench` writes, so that the tools built
// around that format (google/benchmark's tools/compare.py,
// github-action-benchmark, Bencher) read perfci's measurements as they read
// a --benchmark_out file:
//
// {
//   "context": { ... the binary's own GB context, "json_schema_version": 1,
//                "perfci": {"tool_version", "binary", "meters", "events"} },
//   "benchmarks": [{
//     "name": "engine/point_lookup", "family_index": 0,
//     "per_family_instance_index": 0, "run_name": "engine/point_lookup",
//     "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
//     "threads": 1, "iterations": 123456,
//     "real_time": 812.5, "cpu_time": 810.1, "time_unit": "ns",
//     "perf.instructions": 2210.0,        // user counters: the hook's names,
//     "perf.instructions/txn": 552.5,     //   so perfci reads them back
//     "perf.task-clock.scale": 2.5,       //   (when multiplexed)
//     "perf.transactions": 4,
//     "ir_per_iteration": 2000.0          // callgrind
//   }, {
//     "name": "engine/crash", ..., "error_occurred": true,
//     "error_message": "killed by signal 11 ...",
//     "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"
//   }]
// }
//
// A failed benchmark is written the way Google Benchmark writes one that
// called SkipWithError: error_occurred with its message, and zero times that
// every reader of the format knows to disregard. A counter without a value
// is left out (GB counters have no status).
#pragma once

#include <nlohmann/json.hpp>

#include "perfci/model/results.h"

namespace perfci {

// Throws perfci::Error when a benchmark that did not fail has no wall times
// (the run did not use the wall meter): the format has no way to say "not
// measured", and a made-up time would be read as a measurement.
nlohmann::json to_gbench_json(const RunResults& results);

}  // namespace perfci
