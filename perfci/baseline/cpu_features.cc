#include "perfci/baseline/cpu_features.h"

#include <sys/utsname.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::baseline {
namespace {

// What glibc's x86_64 multiarch selectors (sysdeps/x86_64/multiarch/ifunc-*.h)
// and its cpu_features consult for the string/memory routines.
const std::set<std::string>& x86_relevant() {
  static const std::set<std::string> s{"sse2",     "ssse3",   "sse4_1",   "sse4_2",   "avx",
                                       "avx2",     "avx512f", "avx512bw", "avx512vl", "avx512dq",
                                       "avx512cd", "bmi1",    "bmi2",     "lzcnt",    "abm",
                                       "movbe",    "erms",    "fsrm",     "rtm",      "popcnt"};
  return s;
}

// aarch64: the SIMD and SVE selectors, and MTE which changes the routines.
const std::set<std::string>& arm_relevant() {
  static const std::set<std::string> s{"asimd", "sve", "sve2", "mte", "mte3"};
  return s;
}

}  // namespace

std::vector<std::string> ifunc_cpu_features(const std::string& cpuinfo, const std::string& arch) {
  const char* key = arch == "aarch64" ? "Features" : "flags";
  const std::set<std::string>* relevant = arch == "x86_64"    ? &x86_relevant()
                                          : arch == "aarch64" ? &arm_relevant()
                                                              : nullptr;
  std::istringstream in(cpuinfo);
  std::set<std::string> found;
  for (std::string line; std::getline(in, line);) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    std::istringstream flags(line.substr(colon + 1));
    for (std::string f; flags >> f;)
      if (!relevant || relevant->count(f)) found.insert(f);
    break;  // every CPU lists the same features; the first is enough
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> ifunc_cpu_features() {
  utsname u;
  std::string arch = ::uname(&u) == 0 ? u.machine : "";
  std::string text;
  try {
    text = read_file("/proc/cpuinfo");
  } catch (const Error&) {
    return {};  // no /proc: nothing to compare, which the profile shows
  }
  return ifunc_cpu_features(text, arch);
}

}  // namespace perfci::baseline
