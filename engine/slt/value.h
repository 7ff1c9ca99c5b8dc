// A result value as the sqllogictest formatter sees it: SQLite's storage
// classes, with blobs carried as their bytes in the string.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace engine::slt {

using Value = std::variant<std::monostate, int64_t, double, std::string>;

}  // namespace engine::slt
