// The one time format perfci writes into its records: UTC, ISO 8601, to the
// second ("2024-05-01T12:00:00Z"), so records sort and compare as text.
#pragma once

#include <ctime>
#include <string>

namespace perfci {

std::string utc_timestamp();
// The same for a given time (a file's modification time).
std::string utc_timestamp(std::time_t t);

}  // namespace perfci
