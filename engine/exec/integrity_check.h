// PRAGMA integrity_check and quick_check: the engine's own check of a
// database file, reported in sqlite3's words so that the two can be diffed.
//
// What it checks, as sqlite3 3.40 does: every B-tree page (header, cell
// pointers inside the content area, cells inside the page, cells and free
// blocks covering the page exactly once, the fragment count), rowid order
// across each table tree, equal depth of every leaf, overflow chains of the
// right length, the freelist's length against the header, every page used
// exactly once; then, for integrity_check only, that every row has its entry
// in each index and each index as many entries as its table has rows, and
// that NOT NULL columns hold no NULL and every row meets the table's CHECK
// constraints (quick_check too). On top of sqlite3 it checks that index
// keys are in order (sqlite3 only notices through missing-row reports).
#pragma once

#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine::exec {

struct IntegrityOptions {
  int max_errors = 100;  // PRAGMA integrity_check(N)
  // Only this table and its indexes (PRAGMA integrity_check(t)): the
  // freelist and unused pages are then not checked.
  const catalog::TableInfo* only = nullptr;
  bool quick = false;  // quick_check: no index content checks
  // Evaluate CHECK constraints on every row (off under PRAGMA
  // ignore_check_constraints, as in sqlite3).
  bool check_constraints = true;
};

// The result rows: {"ok"} for a sound file; otherwise, as sqlite3 returns
// them, first one row "*** in database main ***\n" plus the page-level
// problems joined by '\n' (if any), then one row per content problem.
// A damaged page is a problem reported. Like sqlite3, the content checks
// read rows and entries even when pages are damaged; where a cursor meets
// the damage, *stopped receives its corruption error and the lines so far
// are returned (sqlite3 returns its rows, then SQLITE_CORRUPT). The Status
// is for other failures (I/O).
Result<std::vector<std::string>> CheckIntegrity(BTree& tree, const catalog::Schema& schema,
                                                const IntegrityOptions& options, Status* stopped);

}  // namespace engine::exec
