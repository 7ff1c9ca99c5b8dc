#include "perfci/counters/pmu_info.h"

#include <linux/perf_event.h>

#include <filesystem>
#include <fstream>

namespace perfci {

std::optional<int> perf_event_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

std::vector<std::string> hardware_pmus(const std::string& sysfs_root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sysfs_root, ec)) {
    std::string name = entry.path().filename().string();
    std::ifstream type_file(entry.path() / "type");
    unsigned type = 0;
    if (!(type_file >> type)) continue;
    // The core PMU is registered as PERF_TYPE_RAW; hybrid parts add more
    // core PMUs with dynamic types but a "cpus" file and the cpu_ prefix.
    bool core = type == PERF_TYPE_RAW || name.rfind("cpu_", 0) == 0 || name.rfind("armv", 0) == 0;
    if (core) out.push_back(name);
  }
  return out;
}

}  // namespace perfci
