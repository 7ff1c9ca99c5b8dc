#include "perfci/util/process_maps.h"

#include <sstream>

namespace perfci {

std::vector<Mapping> parse_process_maps(const std::string& text) {
  std::vector<Mapping> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    // start-end perms offset dev inode [path]
    std::istringstream in(line);
    std::string range, perms, offset, dev, inode;
    if (!(in >> range >> perms >> offset >> dev >> inode)) continue;
    auto dash = range.find('-');
    if (dash == std::string::npos || perms.size() < 3) continue;
    Mapping m;
    try {
      m.start = std::stoull(range.substr(0, dash), nullptr, 16);
      m.end = std::stoull(range.substr(dash + 1), nullptr, 16);
      m.offset = std::stoull(offset, nullptr, 16);
    } catch (const std::exception&) {
      continue;
    }
    m.executable = perms[2] == 'x';
    std::getline(in >> std::ws, m.path);
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<MappedAddress> locate_address(const std::vector<Mapping>& maps,
                                            std::uint64_t address) {
  for (const auto& m : maps) {
    if (address < m.start || address >= m.end) continue;
    if (m.path.empty() || m.path[0] != '/') return std::nullopt;
    return MappedAddress{m.path, address - m.start + m.offset};
  }
  return std::nullopt;
}

}  // namespace perfci
