#include "perfci/env/fingerprint.h"

#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "perfci/counters/pmu_info.h"
#include "perfci/env/valgrind.h"

namespace perfci {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::optional<int> int_file(const std::string& path) {
  std::ifstream in(path);
  int v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

void read_cpuinfo(MachineFingerprint& f) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::string physical = "0";
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "model name" && f.cpu_model.empty()) f.cpu_model = value;
    if (key == "physical id") physical = value;
    if (key == "core id") cores.emplace(physical, value);
  }
  f.physical_cores = static_cast<int>(cores.size());
}

}  // namespace

MachineFingerprint collect_fingerprint() {
  MachineFingerprint f;
  read_cpuinfo(f);
  f.logical_cpus = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  if (auto smt = int_file("/sys/devices/system/cpu/smt/active")) f.smt_active = *smt != 0;
  utsname u;
  if (::uname(&u) == 0) {
    f.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
    f.hostname = u.nodename;
  }
  f.hardware_pmus = hardware_pmus();
  f.perf_event_paranoid = perf_event_paranoid();
  f.aslr = int_file("/proc/sys/kernel/randomize_va_space");
  f.cpufreq_governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  if (auto no_turbo = int_file("/sys/devices/system/cpu/intel_pstate/no_turbo"))
    f.turbo = *no_turbo == 0;
  else if (auto boost = int_file("/sys/devices/system/cpu/cpufreq/boost"))
    f.turbo = *boost != 0;
  ::getloadavg(f.load_average, 3);
  f.valgrind = valgrind_version();
  f.libc = std::string("glibc ") + gnu_get_libc_version();
  return f;
}

void to_json(nlohmann::json& j, const MachineFingerprint& f) {
  auto opt = [](const auto& o) -> nlohmann::json {
    if (o) return *o;
    return nullptr;
  };
  j = nlohmann::json{
      {"cpu_model", f.cpu_model},
      {"logical_cpus", f.logical_cpus},
      {"physical_cores", f.physical_cores},
      {"smt_active", opt(f.smt_active)},
      {"kernel", f.kernel},
      {"hostname", f.hostname},
      {"hardware_pmu", f.hardware_pmu()},
      {"hardware_pmus", f.hardware_pmus},
      {"perf_event_paranoid", opt(f.perf_event_paranoid)},
      {"aslr", opt(f.aslr)},
      {"cpufreq_governor",
       f.cpufreq_governor.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.cpufreq_governor)},
      {"turbo", opt(f.turbo)},
      {"load_average", {f.load_average[0], f.load_average[1], f.load_average[2]}},
      {"valgrind", f.valgrind.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.valgrind)},
      {"libc", f.libc}};
}

}  // namespace perfci
