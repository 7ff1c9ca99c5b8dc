// CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP: words that in an expression
// are calls of the zero-argument functions of the same name, written
// without parentheses (parser_time_keyword.cc).
#pragma once

#include <string_view>

namespace engine::sql {

// `word` (any letter case, unquoted) is one of the three keywords.
bool IsTimeKeyword(std::string_view word);

}  // namespace engine::sql
