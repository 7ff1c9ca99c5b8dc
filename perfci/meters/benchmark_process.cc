#include "perfci/meters/benchmark_process.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "perfci/util/error.h"

namespace perfci {

SubprocessOptions benchmark_process(const std::string& binary, std::vector<std::string> args,
                                    const ProcessConditions& conditions,
                                    const std::map<std::string, std::string>& extra) {
  SubprocessOptions o;
  o.argv.push_back(binary);
  o.argv.insert(o.argv.end(), conditions.args.begin(), conditions.args.end());
  for (auto& a : args) o.argv.push_back(std::move(a));
  std::map<std::string, std::string> env{{"LC_ALL", "C"}};
  for (const char* keep : {"PATH", "HOME", "LD_LIBRARY_PATH"})
    if (const char* v = std::getenv(keep)) env[keep] = v;
  if (!env.count("PATH")) env["PATH"] = "/usr/bin:/bin";
  for (const auto& [k, v] : extra) env[k] = v;
  o.base_env = env;
  o.pin_cpu = conditions.pin_cpu;
  o.timeout = conditions.timeout;
  o.disable_aslr = conditions.disable_aslr;
  return o;
}

void check_binary(const std::string& binary) {
  std::error_code ec;
  if (!std::filesystem::exists(binary, ec))
    throw Error("benchmark binary " + binary + " does not exist (is it built?)");
  if (!std::filesystem::is_regular_file(binary, ec) || ::access(binary.c_str(), X_OK) != 0)
    throw Error("benchmark binary " + binary + " is not an executable file");
}

std::string failure_message(const std::string& what, const SubprocessResult& r) {
  std::string msg = what + " " + r.describe();
  std::string tail = r.err_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  if (tail.size() > 2000) tail = "..." + tail.substr(tail.size() - 2000);
  if (!tail.empty()) msg += "; stderr ends with:\n" + tail;
  return msg;
}

std::vector<std::string> list_benchmarks(const std::string& binary, const std::string& filter,
                                         const ProcessConditions& conditions) {
  check_binary(binary);
  auto opts = benchmark_process(
      binary, {"--benchmark_list_tests=true", "--benchmark_filter=" + filter}, conditions);
  auto r = run_subprocess(opts);
  if (!r.ok()) throw Error(failure_message(binary + " --benchmark_list_tests", r));
  // Google Benchmark 1.7 reports a bad regex or an empty selection on
  // stderr and still exits 0.
  if (r.err_tail.find("Could not compile") != std::string::npos)
    throw Error("invalid benchmark filter '" + filter + "': " + r.err_tail);
  std::vector<std::string> names;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) names.push_back(line);
  if (names.empty()) throw Error("the filter '" + filter + "' selects no benchmark of " + binary);
  return names;
}

std::vector<std::string> single_benchmark_args(const std::string& name,
                                               const std::optional<double>& min_time) {
  std::vector<std::string> args{"--benchmark_filter=" + exact_filter(name),
                                "--benchmark_format=json"};
  if (min_time) {
    std::ostringstream t;
    t << *min_time;
    args.push_back("--benchmark_min_time=" + t.str());
  }
  return args;
}

std::string exact_filter(const std::string& name) {
  std::string out = "^";
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out + "$";
}

}  // namespace perfci
