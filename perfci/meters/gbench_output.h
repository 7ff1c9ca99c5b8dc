// Google Benchmark's JSON output (--benchmark_out_format=json), reduced to
// what the wall and counter meters need: per benchmark the iterations, the
// times per iteration in ns, an error if it reported one, and its user
// counters (where the hook's perf.* counters arrive).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/model/results.h"

namespace perfci {

struct GbenchRun {
  std::string name;
  std::int64_t iterations = 0;
  double real_time_ns = 0;
  double cpu_time_ns = 0;
  std::string error;
  std::map<std::string, double> counters;  // every numeric field that is not a standard one
};

// parse_gbench_samples with each benchmark's repetitions merged, weighted by
// iterations; a benchmark that skipped itself is failed (perfci asked for
// it). Throws perfci::Error, as parse_gbench_samples does.
std::vector<GbenchRun> parse_gbench_json(const std::string& text, const std::string& origin);

// The file's "context" object (library_build_type, num_cpus, caches, ...);
// an empty object when it has none. Throws perfci::Error on text that is not
// JSON or a context that is not an object.
nlohmann::json parse_gbench_context(const std::string& text, const std::string& origin);

// One benchmark of a Google Benchmark file with every repetition kept apart:
// the samples of an unpaired A/B (`perfci ab --a-json/--b-json`).
struct GbenchSamples {
  std::string name;     // run_name (the name without the aggregate suffix)
  std::string error;    // error_occurred (SkipWithError) in any repetition: failed
  std::string skipped;  // skipped by the benchmark itself (GB 1.8 "skipped"): its message
  std::vector<double> real_time_ns;  // one per repetition, in repetition order
  std::vector<double> cpu_time_ns;
  std::vector<std::int64_t> iterations;
  std::map<std::string, std::vector<double>> counters;  // user counters per repetition
  int aggregates = 0;                                   // aggregate rows seen (and skipped)
};

struct GbenchFile {
  nlohmann::json context = nlohmann::json::object();
  std::vector<GbenchSamples> benchmarks;  // in the file's order
};

// Rows with run_type "iteration" (or none: GB before 1.5) are the samples;
// aggregate rows (mean, median, stddev, cv, big-O) are skipped, since their
// repetitions are there too. A benchmark with aggregate rows only (the binary
// ran with --benchmark_report_aggregates_only) is an error naming it: its
// samples are gone, and a mean is not a sample. error_occurred true (with
// error_message) fails the benchmark; GB 1.8's "skipped": true (with
// skip_message) marks it skipped. Throws perfci::Error on malformed input.
GbenchFile parse_gbench_samples(const std::string& text, const std::string& origin);

// Whether a parsed JSON document looks like Google Benchmark output (a
// "benchmarks" array and a "context" object, no perfci "schema").
bool is_gbench_document(const nlohmann::json& doc);

// Counter results for the requested events from the hook's perf.* counters
// (see perfci/bench.h). Empty when the benchmark reported no perf.* counter
// at all, i.e. it does not use the hook.
std::vector<CounterResult> counters_from_gbench(const GbenchRun& run,
                                                const std::vector<std::string>& events);

// Transactions per iteration, when the hook had a divisor.
std::optional<double> transactions_from_gbench(const GbenchRun& run);

}  // namespace perfci
