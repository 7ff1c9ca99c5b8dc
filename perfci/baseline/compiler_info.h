// What compiled a binary, in the terms a baseline profile compares: the
// compiler, its version and the flags, read from the DWARF producer string
// ("GNU C++20 12.2.0 -mtune=generic -march=x86-64 -g -O2 -std=c++20",
// "Debian clang version 14.0.6"), and the build type from the build folder's
// CMakeCache.txt. The cache's CMAKE_CXX_FLAGS_<TYPE> are not read: a project
// may set them as plain variables that the cache never sees (this one does),
// so only the producer is trusted for flags; clang records none there unless
// built with -grecord-command-line, and its build type stands in.
#pragma once

#include <filesystem>
#include <string>

namespace perfci::baseline {

struct CompilerInfo {
  std::string name;     // "gcc", "clang", or the producer's first word
  std::string version;  // "12.2.0"; empty when the producer has none
  std::string flags;    // the producer's recorded options, space-separated
};

// Never throws: an unknown producer yields its first word as name.
CompilerInfo parse_producer(const std::string& producer);

// "12" of "12.2.0"; empty for an empty version.
std::string major_version(const std::string& version);

struct CMakeBuildSettings {
  std::string build_type;            // CMAKE_BUILD_TYPE as written
  std::filesystem::path source_dir;  // CMAKE_HOME_DIRECTORY: the tree it was built from
};

// Reads <build_dir>/CMakeCache.txt; empty fields when it is absent.
CMakeBuildSettings read_cmake_build_settings(const std::filesystem::path& build_dir);

// "release", "debug", "relwithdebinfo", ... from CMAKE_BUILD_TYPE, else from
// the producer's -O level (-O0 or none: debug), plus "-sanitize" when the
// flags enable a sanitizer: the last part of a profile id.
std::string build_kind(const std::string& cmake_build_type, const std::string& flags);

}  // namespace perfci::baseline
