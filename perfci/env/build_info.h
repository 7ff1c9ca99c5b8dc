// What built a benchmark binary: the compiler and flags recorded in its
// DWARF (DW_AT_producer, e.g. "GNU C++20 12.2.0 -mtune=generic -O2 -g") and
// its GNU build-id. Results from different toolchains are not comparable
// instruction for instruction.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace perfci {

struct BuildInfo {
  std::string producer;  // the most common producer among its compile units
  std::string build_id;  // hex; empty when the binary has none
};

// Throws perfci::Error when the file cannot be read as ELF.
BuildInfo read_build_info(const std::string& binary);

void to_json(nlohmann::json& j, const BuildInfo& b);

}  // namespace perfci
