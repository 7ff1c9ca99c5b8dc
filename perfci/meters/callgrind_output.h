// Reads callgrind's output format (compressed or not): the totals of every
// collected event, per function self and inclusive cost of the "Ir" event
// (and self L1 / LL misses when the cache simulation ran), and the calls
// between functions. See valgrind's docs/callgrind-format.
#pragma once

#include <cstdint>
#include <map>
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
  std::uint64_t total_ir = 0;                   // the file's totals/summary line
  std::map<std::string, std::uint64_t> totals;  // every event: Ir, and D1mr, ... with --cache-sim
  std::vector<FunctionCost> functions;          // descending self_ir, then name
  std::vector<CallEdge> calls;                  // by caller, callee
};

// Throws perfci::Error ("<origin>:<line>: ...") on malformed input.
CallgrindProfile parse_callgrind_output(const std::string& text, const std::string& origin);

}  // namespace perfci
