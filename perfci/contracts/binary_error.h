// Why a binary cannot be checked at all. These are input errors (exit 2 in
// the command), as opposed to a contract that is broken (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace perfci::contracts {

class BinaryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace perfci::contracts
