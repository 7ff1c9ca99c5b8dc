// perfci reports bad input (a missing binary, a malformed config, an unknown
// event name) by throwing perfci::Error; the command line turns it into a
// message on stderr and exit code 2, so no caller has to thread a status
// through every layer.
#pragma once

#include <stdexcept>
#include <string>

namespace perfci {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace perfci
