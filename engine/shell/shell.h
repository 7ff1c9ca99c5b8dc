// The engine's command-line shell, output-compatible with the sqlite3 shell's
// default list mode: rows as values joined by '|', NULL as empty text,
// numbers as sqlite3 renders them, `.tables`, `.schema` and `.open`, and errors on
// stderr in the sqlite3 shell's words.
#pragma once

#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/database.h"

namespace engine::shell {

class Shell {
 public:
  // Runs on `db`, which stays the caller's: `.open` replaces it for the
  // shell but cannot close it.
  Shell(Database* db, std::ostream& out, std::ostream& err) : db_(db), out_(out), err_(err) {}
  // Runs on `db` and owns it: `.open` closes it, as sqlite3's does.
  Shell(std::unique_ptr<Database> db, std::ostream& out, std::ostream& err)
      : owned_(std::move(db)), db_(owned_.get()), out_(out), err_(err) {}

  // How the shell opens a database, at startup and for `.open`: with URI
  // filenames, as sqlite3's shell (SQLITE_CONFIG_URI).
  static DatabaseOptions OpenOptions();

  // Reads SQL and dot-commands from `in` until EOF, as `sqlite3 DB < file`
  // does. Returns the process exit status (1 after any error).
  int RunScript(std::istream& in);
  // Runs the SQL text of `sqlite3 DB "SQL"` (the -c option). Returns the
  // exit status: 0, or the SQLite result code of the failure.
  int RunCommand(std::string_view sql);

 private:
  // Runs the statements of one complete chunk; false after an error.
  bool RunChunk(std::string_view sql, int first_line, bool command_mode, int* code);
  // Writes the error as sqlite3 does in this mode; `sql` runs from the
  // failing statement's start to the end of the chunk.
  void ReportError(const Status& st, bool prepare, std::string_view sql, int line,
                   bool command_mode);
  bool DotCommand(const std::string& line);
  // `.open [--new] [--readonly] [FILE]`; false on a bad argument.
  bool OpenCommand(const std::vector<std::string>& args);
  void Tables(const std::string& pattern);
  void Schema(const std::string& pattern);

  std::unique_ptr<Database> owned_;  // null while running on a borrowed one
  Database* db_;
  std::ostream& out_;
  std::ostream& err_;
};

// Whether `sql` ends with a complete statement: a ';' outside every quote
// and comment, followed only by space and comments (sqlite3_complete).
bool IsComplete(std::string_view sql);

}  // namespace engine::shell
