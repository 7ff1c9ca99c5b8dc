// How the sqlite3 shell (3.40, Debian 12's) words an error, so that
// engine-shell's stderr can be diffed against it byte for byte:
//
//   sqlite3 DB "SQL"              Error: in prepare, near "FORM": syntax error
//                                   SELECT * FORM t
//                                            ^--- error here
//   sqlite3 DB < script           Parse error near line 3: near "FORM": ...
//                                 Runtime error near line 4: UNIQUE ... (19)
//
// The caret lines come from the error's byte offset (Status::offset()),
// rendered like shell.c's shell_error_context().
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace engine::shell {

// isspace() in the C locale, which is what shell.c's IsSpace() is.
inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The SQLite result code sqlite3 would give for `st` (the shell's exit
// status in command mode, and the "(19)" after a message when above 1).
int ResultCode(const Status& st);

// Whether sqlite3 reports this error while preparing ("in prepare", "Parse
// error") although the engine found it while stepping: the engine checks
// DDL names, for one, only when the statement runs.
bool IsPrepareError(const Status& st);

// "\n  <the SQL>\n  <spaces>^--- error here" for an error at byte `offset`
// of `sql` (the text from the failing statement's start to the end of the
// input); "" when the offset is unknown (-1) or outside the text.
std::string ErrorContext(std::string_view sql, int offset);

// The text after "Error: " (command mode) or after the "Parse error near
// line N: " / "Runtime error near line N: " prefix (script mode), without
// the final newline. `sql` as for ErrorContext.
std::string ErrorBody(const Status& st, bool prepare, std::string_view sql);

}  // namespace engine::shell
