// Small string helpers used across perfci: trimming the output of child
// processes and user text, and splitting comma lists from the command line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perfci {

// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim(std::string_view s);
// `s` without trailing blanks: for output whose leading spaces are content
// (a path, a version line).
std::string trim_end(std::string_view s);

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
std::vector<std::string> split_list(std::string_view s, char separator = ',');

}  // namespace perfci
