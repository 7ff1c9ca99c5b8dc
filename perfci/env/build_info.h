// What built a benchmark binary: the compiler and flags recorded in its
// DWARF (DW_AT_producer, e.g. "GNU C++20 12.2.0 -mtune=generic -O2 -g") and
// its GNU build-id. Results from different toolchains are not comparable
// instruction for instruction.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

struct BuildInfo {
  std::string producer;  // the most common producer among its compile units
  std::string build_id;  // hex; empty when the binary has none
  // An undefined (imported) __assert_fail in its symbol tables: some code in
  // it was compiled without NDEBUG and calls assert().
  bool calls_assert_fail = false;
};

// How the measured code was built, as far as the binary tells (issue 17):
// every field says "unknown" rather than guess.
struct BuildFlavour {
  // The last -O option the producer records ("-O2", "-O0", "-Os"); "-O0"
  // for a GCC producer with none (GCC records every option and defaults to
  // -O0); empty when unknown (clang records no options without
  // -grecord-command-line).
  std::string optimization;
  std::optional<bool> optimized;                       // false at -O0; unknown with optimization
  std::optional<std::vector<std::string>> sanitizers;  // -fsanitize=...; unknown as above
  // "compiled-in" when the binary calls __assert_fail; else "unknown":
  // NDEBUG is a -D option no producer records, and a binary without asserts
  // looks the same with or without it, so "off" is never claimed.
  std::string assertions = "unknown";
};

BuildFlavour build_flavour(const BuildInfo& info);

// Throws perfci::Error when the file cannot be read as ELF.
BuildInfo read_build_info(const std::string& binary);

// {"producer", "build_id", "optimization", "optimized", "sanitizers",
// "assertions"}; unknowns are null ("assertions": "unknown").
void to_json(nlohmann::json& j, const BuildInfo& b);

// What makes a measurement less than it seems, one sentence each, naming
// `what` ("the measured binary", "A"): Google Benchmark's library built as
// debug (the context's library_build_type), a binary compiled without
// optimisation or with a sanitizer. `build` is the JSON of to_json above
// (null or {} when unknown); `gbench_context` the binary's Google Benchmark
// context (empty when unknown).
std::vector<std::string> provenance_warnings(const std::string& what, const nlohmann::json& build,
                                             const nlohmann::json& gbench_context);

}  // namespace perfci
