#include "perfci/env/valgrind.h"

#include <chrono>

#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci {

std::string valgrind_version(const std::string& valgrind) {
  SubprocessOptions o;
  o.argv = {valgrind, "--version"};
  o.timeout = std::chrono::seconds(30);
  auto r = run_subprocess(o);
  if (!r.ok()) return {};
  return trim_end(r.out);
}

}  // namespace perfci
