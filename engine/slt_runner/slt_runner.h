// Runs sqllogictest scripts against the engine: each file on a fresh
// database, records filtered by skipif/onlyif as the "sqlite" engine,
// results formatted and compared (or hashed) the way sqllogictest does.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

namespace engine::slt {

struct RunCounts {
  size_t passed = 0;
  size_t failed = 0;
};

// Runs one script; failures are described on `errors`. A script that
// cannot be read counts as one failure.
RunCounts RunScriptFile(const std::string& path, const std::string& scratch_dir,
                        std::ostream& errors);

}  // namespace engine::slt
