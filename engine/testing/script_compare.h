// One SQL script run statement by statement on the engine and on sqlite3,
// each on its own database file, rendered as a transcript: per statement its
// text, its rows, then its error or its changes() and last_insert_rowid().
// A test that expects sqlite3's behaviour compares the two transcripts (and,
// with DumpTables, what the tables hold afterwards), so it asserts every
// message and every count, not only the final contents.
#pragma once

#include <string>

namespace engine::testing {

// The transcript of `script` on the engine, on the database file `path`.
std::string EngineTranscript(const std::string& path, const std::string& script);
// The same on sqlite3.
std::string SqliteTranscript(const std::string& path, const std::string& script);
// Every table's rows (in rowid order) of the file `path`, read by sqlite3.
std::string DumpTables(const std::string& path);

}  // namespace engine::testing
