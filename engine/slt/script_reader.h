// Reads sqllogictest scripts (the format of ../shared/slt/README.md and of
// sqllogictest.c): records separated by blank lines, '#' comments, and
// skipif/onlyif lines attached to the record that follows them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/slt/record.h"
#include "engine/status.h"

namespace engine::slt {

// Every record of `text`; a malformed record is an error naming its line.
Result<std::vector<Record>> ReadScript(std::string_view text);
Result<std::vector<Record>> ReadScriptFile(const std::string& path);

}  // namespace engine::slt
