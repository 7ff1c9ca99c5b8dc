#include "perfci/meters/profile_process.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfci/counters/cpu_clock_ring.h"
#include "perfci/util/error.h"

namespace perfci {

BenchmarkResult run_profile_process_mode(const std::string& binary, const std::string& name,
                                         const ProfileOptions& o) {
  BenchmarkResult b;
  b.name = name;
  const std::string what = "hook-free profile run of " + name;
  const std::vector<std::string> args = single_benchmark_args(name, o.min_time);
  // /proc/PID/maps names the program by its canonical path, whatever
  // spelling (relative, through a symlink) the caller gave.
  std::error_code ec;
  const std::string image = std::filesystem::weakly_canonical(binary, ec).string();
  CpuClockRing sampler(o.period_ns);
  int child = 0;
  std::string maps;
  auto opts = benchmark_process(binary, args, o.conditions);
  opts.before_exec = [&](int pid) {
    child = pid;
    sampler.open(pid);
  };
  // While the child runs: drain the ring before it fills, and keep the
  // latest map of the benchmark program (before exec it is perfci's).
  opts.poll_interval = std::chrono::milliseconds(20);
  opts.stop_when = [&] {
    sampler.drain();
    std::ifstream in("/proc/" + std::to_string(child) + "/maps");
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(ec ? binary : image) != std::string::npos) maps = text.str();
    return false;
  };
  auto r = run_subprocess(opts);
  sampler.drain();
  if (!r.ok()) {
    b.error = failure_message(what + ":", r);
    return b;
  }
  if (!sampler.error().empty()) {
    b.error = what + ": " + sampler.error();
    return b;
  }
  if (sampler.samples() == 0) {
    b.error = what + ": no samples (the process ran for less than one sampling period)";
    return b;
  }
  if (maps.empty()) {
    b.error = what + ": " + std::to_string(sampler.samples()) +
              " samples, but the process never showed " + image +
              " in its memory map, so none can be symbolized";
    return b;
  }
  nlohmann::json ips = nlohmann::json::array();
  for (const auto& [ip, n] : sampler.histogram()) ips.push_back({ip, n});
  nlohmann::json profile{{"lost", sampler.lost()}, {"maps", maps}, {"ips", std::move(ips)}};
  try {
    b.profile = symbolize_hook_profile(profile, o.top_symbols);
    b.profile->mode = "process";
  } catch (const Error& e) {
    b.error = what + ": " + e.what();
  }
  return b;
}

}  // namespace perfci
