// Facts about the kernel's perf support. Hardware PMU presence comes from the
// kernel (sysfs), not from libpfm4's CPUID check, which says yes inside VMs
// whose hypervisor exposes no PMU.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfci {

// /proc/sys/kernel/perf_event_paranoid, if readable.
std::optional<int> perf_event_paranoid();

// Names of the PMUs under /sys/bus/event_source/devices whose type is
// PERF_TYPE_RAW-capable hardware ("cpu", "cpu_core", "cpu_atom", "armv8_*").
std::vector<std::string> hardware_pmus(
    const std::string& sysfs_root = "/sys/bus/event_source/devices");

inline bool hardware_pmu_present() { return !hardware_pmus().empty(); }

}  // namespace perfci
