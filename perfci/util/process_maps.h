// /proc/<pid>/maps, parsed: which file and file offset an address of a
// running process comes from, so that a sampled instruction pointer can be
// symbolized offline from the ELF file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

struct Mapping {
  std::uint64_t start = 0, end = 0, offset = 0;
  bool executable = false;
  std::string path;  // empty for anonymous memory; "[vdso]" etc. for specials
};

// Lines that do not parse are skipped.
std::vector<Mapping> parse_process_maps(const std::string& text);

struct MappedAddress {
  std::string path;
  std::uint64_t file_offset;
};
std::optional<MappedAddress> locate_address(const std::vector<Mapping>& maps,
                                            std::uint64_t address);

}  // namespace perfci
