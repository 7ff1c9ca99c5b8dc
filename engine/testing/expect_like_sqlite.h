// For tests: a script must behave on the engine as on sqlite3, statement by
// statement (transcripts, see script_compare.h) and in what the tables hold
// afterwards. Returns sqlite3's transcript, so that the test can also check
// that it says what the case is about.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "engine/testing/script_compare.h"
#include "engine/testing/temp_dir.h"

namespace engine::testing {

inline std::string ExpectLikeSqlite(const std::string& script) {
  TempDir dir;
  const std::string mine = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  const std::string expected = SqliteTranscript(theirs, script);
  EXPECT_EQ(EngineTranscript(mine, script), expected);
  EXPECT_EQ(DumpTables(mine), DumpTables(theirs));
  return expected;
}

}  // namespace engine::testing
