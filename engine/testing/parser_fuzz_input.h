// One input of the parser fuzz target (engine/sql/parser_fuzz.cc), shared
// with the regression test that replays the inputs it once crashed on.
#pragma once

#include <string>
#include <string_view>

namespace engine::testing {

// Parses the script: any bytes must parse or fail with an error that
// explains itself and points inside the text, and whatever SELECT parses
// must render to SQL that parses again. "" when all held, else what broke.
std::string CheckParserInput(std::string_view sql);

}  // namespace engine::testing
