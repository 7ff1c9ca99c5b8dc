// Hashing of query results the sqllogictest way: the MD5 of every value
// followed by '\n', written as "N values hashing to <hex>".
#pragma once

#include <string>
#include <vector>

#include "engine/slt/record.h"

namespace engine::slt {

// Lower-case hex MD5 of the values, each followed by a newline (libmd).
std::string HashResult(const std::vector<std::string>& values);

// What a result prints as in a script: its values one per line, or a single
// "N values hashing to H" line when hash_threshold > 0 and there are more
// than hash_threshold values.
std::vector<std::string> ResultLines(const std::vector<std::string>& values, int hash_threshold);

// Whether formatted, sorted `values` satisfy the query record: by hash when
// the script gives one (whatever the threshold), else value by value.
bool MatchesExpected(const Record& query, const std::vector<std::string>& values);

}  // namespace engine::slt
