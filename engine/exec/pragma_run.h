// PRAGMA statements: the ones the engine implements answer with sqlite3's
// columns and rows; the ones sqlite3 knows and the engine does not are an
// error (a silent empty answer where sqlite3 returns rows would be a wrong
// answer); a name sqlite3 does not know either is a no-op, as in sqlite3.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/exec/trees.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/btree.h"
#include "engine/value.h"

namespace engine::exec {

// The result of one PRAGMA, computed whole when the statement starts
// (sqlite3 computes these eagerly too): its Values view `text`.
struct PragmaResult {
  std::vector<std::vector<Value>> rows;
  std::deque<std::string> text;  // a deque: its strings never move
  // An error to return after the rows (integrity_check that met a damaged
  // page while reading rows, as sqlite3 returns SQLITE_CORRUPT after its
  // report).
  Status after_rows;
};

// The result's column names, known at prepare time; the prepare-time errors
// (unknown schema, an unsupported pragma, integrity_check of no table) come
// from here.
Result<std::vector<std::string>> PragmaColumns(const catalog::Schema& schema,
                                               const sql::PragmaStmt& p);

// What the connection's pragmas set and its statements read.
struct PragmaSettings {
  // PRAGMA ignore_check_constraints: writes evaluate no CHECK, and
  // integrity_check / quick_check report no row that breaks one.
  bool ignore_check_constraints = false;
};

// Runs the pragma inside the caller's read transaction; an assignment to
// one of `settings` changes it.
Status RunPragma(const Trees& trees, const catalog::Schema& schema, const sql::PragmaStmt& p,
                 PragmaSettings* settings, PragmaResult* out);

}  // namespace engine::exec
