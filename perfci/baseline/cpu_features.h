// The CPU features that select which implementation of glibc's string and
// memory routines (memcpy, strlen, memcmp, ...) a process gets through
// IFUNC: the same binary on a CPU with AVX-512 runs other instructions than
// on one with AVX2 only, so instruction counts are comparable only between
// machines that agree on these.
#pragma once

#include <string>
#include <vector>

namespace perfci::baseline {

// The relevant features among the flags /proc/cpuinfo lists ("flags" on
// x86, "Features" on Arm), sorted. Other architectures: every flag.
std::vector<std::string> ifunc_cpu_features(const std::string& cpuinfo_text,
                                            const std::string& arch);

// The same for this machine (/proc/cpuinfo, uname's machine).
std::vector<std::string> ifunc_cpu_features();

}  // namespace perfci::baseline
