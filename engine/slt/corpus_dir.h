// Where the tests find ../shared/slt: ctest sets PERFCI_SOURCE_DIR; a test
// binary run by hand falls back to the path CMake compiled in.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace engine::slt {

inline std::string CorpusDir() {
  if (const char* src = std::getenv("PERFCI_SOURCE_DIR"); src != nullptr && *src != '\0') {
    std::filesystem::path dir = std::filesystem::path(src) / ".." / "shared" / "slt";
    if (std::filesystem::exists(dir)) return dir.string();
  }
#ifdef PERFCI_SLT_DIR
  return PERFCI_SLT_DIR;
#else
  return "../shared/slt";
#endif
}

}  // namespace engine::slt
