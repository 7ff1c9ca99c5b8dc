// The machine fingerprint every report embeds (`perfci env`): what decides
// whether two measurements are comparable and which meters can work here.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

struct MachineFingerprint {
  std::string cpu_model;
  int logical_cpus = 0;
  int physical_cores = 0;          // 0 when unknown
  std::optional<bool> smt_active;  // from /sys/devices/system/cpu/smt/active
  std::string kernel;              // uname -srm
  std::string hostname;
  std::vector<std::string> hardware_pmus;  // empty: no hardware PMU
  std::optional<int> perf_event_paranoid;
  std::optional<int> aslr;       // /proc/sys/kernel/randomize_va_space
  std::string cpufreq_governor;  // empty when not readable (VMs)
  std::optional<bool> turbo;     // empty when not readable
  double load_average[3] = {0, 0, 0};
  std::string valgrind;  // "valgrind-3.19.0", empty when absent
  std::string libc;      // glibc version

  bool hardware_pmu() const { return !hardware_pmus.empty(); }
};

MachineFingerprint collect_fingerprint();

void to_json(nlohmann::json& j, const MachineFingerprint& f);

}  // namespace perfci
