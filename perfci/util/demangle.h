// Itanium C++ demangling through abi::__cxa_demangle.
#pragma once

#include <string>
#include <string_view>

namespace perfci {

// The demangled form of `symbol`, or `symbol` itself when it is not a mangled
// C++ name (C functions, compiler-generated labels).
std::string demangle(std::string_view symbol);

}  // namespace perfci
