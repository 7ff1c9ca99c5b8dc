// How perfci starts a Google Benchmark binary: the same conditions for every
// meter and every trial (fixed environment, ASLR off, optional CPU pin, a
// timeout), and the benchmark-selection helpers built on the binary's own
// --benchmark_list_tests.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfci/util/subprocess.h"

namespace perfci {

struct ProcessConditions {
  // Arguments of the binary itself (a suite's "args"), given before perfci's
  // --benchmark_* flags in every run of every meter.
  std::vector<std::string> args;
  std::optional<int> pin_cpu;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  bool disable_aslr = true;
};

// `binary` with conditions.args, then `args`, in
// a fixed environment: PATH, HOME, LD_LIBRARY_PATH (when set) and LC_ALL=C,
// plus `extra`. Nothing else of the caller's environment leaks in, so two
// runs see the same bytes (stack layout and getenv results included).
SubprocessOptions benchmark_process(const std::string& binary, std::vector<std::string> args,
                                    const ProcessConditions& conditions,
                                    const std::map<std::string, std::string>& extra = {});

// Throws perfci::Error when the file is missing or not executable.
void check_binary(const std::string& binary);

// Names of the benchmarks the filter selects, in the binary's order. Throws
// perfci::Error when the binary cannot list them (e.g. a bad regex) or the
// filter selects none.
std::vector<std::string> list_benchmarks(const std::string& binary, const std::string& filter,
                                         const ProcessConditions& conditions);

// A --benchmark_filter value selecting exactly this benchmark.
std::string exact_filter(const std::string& name);

// The arguments of one hook-free run of benchmark `name`: it alone, JSON
// output (its iteration counts), and min_time when one is given.
std::vector<std::string> single_benchmark_args(const std::string& name,
                                               const std::optional<double>& min_time);

// "<what> <describe()>; stderr: <tail>": the message for a failed child.
std::string failure_message(const std::string& what, const SubprocessResult& r);

}  // namespace perfci
