#include "perfci/env/valgrind.h"

#include <chrono>

#include "perfci/util/interrupt.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci {

std::string valgrind_version(const std::string& valgrind) {
  SubprocessOptions o;
  o.argv = {valgrind, "--version"};
  o.timeout = std::chrono::seconds(30);
  SubprocessResult r;
  try {
    r = run_subprocess(o);
  } catch (const Interrupted&) {
    // After SIGINT/SIGTERM nothing new starts, but the incomplete report
    // being written still records the machine: the version is unknown.
    return {};
  }
  if (!r.ok()) return {};
  return trim_end(r.out);
}

}  // namespace perfci
