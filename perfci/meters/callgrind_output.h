// Reads callgrind's output format (compressed or not): the total of the
// collected events and, per function, self and inclusive cost of the "Ir"
// event. See valgrind's docs/callgrind-format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfci/model/results.h"

namespace perfci {

// A call from one function to another, summed over the file.
struct CallEdge {
  std::string caller;
  std::string callee;
  std::string callee_object;
  std::uint64_t calls = 0;
  std::uint64_t inclusive_ir = 0;
};

struct CallgrindProfile {
  std::uint64_t total_ir = 0;           // the file's totals/summary line
  std::vector<FunctionCost> functions;  // descending self_ir, then name
  std::vector<CallEdge> calls;          // by caller, callee
};

// Throws perfci::Error ("<origin>:<line>: ...") on malformed input.
CallgrindProfile parse_callgrind_output(const std::string& text, const std::string& origin);

}  // namespace perfci
