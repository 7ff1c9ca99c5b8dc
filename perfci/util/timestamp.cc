#include "perfci/util/timestamp.h"

#include <chrono>
#include <ctime>

namespace perfci {

std::string utc_timestamp() {
  return utc_timestamp(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()));
}

std::string utc_timestamp(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace perfci
