#include "perfci/util/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace perfci {

std::string demangle(std::string_view symbol) {
  if (symbol.size() < 2 || symbol[0] != '_' || symbol[1] != 'Z') return std::string(symbol);
  std::string owned(symbol);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(owned.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !out) return owned;
  return std::string(out.get());
}

}  // namespace perfci
