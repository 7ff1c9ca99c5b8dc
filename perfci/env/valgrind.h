// The valgrind on this machine: part of the machine fingerprint and of a
// baseline's toolchain, since callgrind counts depend on its version.
#pragma once

#include <string>

namespace perfci {

// "valgrind-3.19.0", or empty when valgrind cannot be run (or perfci was
// interrupted: then nothing new starts, see perfci/util/interrupt.h).
std::string valgrind_version(const std::string& valgrind = "valgrind");

}  // namespace perfci
