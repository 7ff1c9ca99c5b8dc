#include "perfci/util/strings.h"

namespace perfci {
namespace {

constexpr std::string_view kBlanks = " \t\r\n";

}  // namespace

std::string trim(std::string_view s) {
  const auto a = s.find_first_not_of(kBlanks);
  if (a == std::string_view::npos) return "";
  return std::string(s.substr(a, s.find_last_not_of(kBlanks) - a + 1));
}

std::string trim_end(std::string_view s) {
  const auto e = s.find_last_not_of(kBlanks);
  return e == std::string_view::npos ? "" : std::string(s.substr(0, e + 1));
}

std::vector<std::string> split_list(std::string_view s, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto end = s.find(separator, start);
    if (end == std::string_view::npos) end = s.size();
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace perfci
