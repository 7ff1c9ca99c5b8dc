// How a Database is opened: the settings a user of the library chooses. The
// engine maps them onto its internals (the pager's cache and commit), which
// stay out of the public headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace engine {

class Env;  // engine/storage/env.h: how the files are reached

// PRAGMA synchronous: how a commit waits for the disk. kOff: no fsync at all;
// kNormal: the journal and the database file are synced at commit; kFull: as
// kNormal, the journal once more after its record count is written, and the
// directory after the journal is deleted, so that a commit that returned
// survives a power cut (SQLite's EXTRA; its FULL may lose the last commit).
enum class Synchronous { kOff, kNormal, kFull };

struct DatabaseOptions {
  size_t cache_pages = 2000;  // bound on cached pages (at least 16)
  uint32_t page_size = 4096;  // for a new, empty file only
  Synchronous synchronous = Synchronous::kFull;
  // SQLite's SQLITE_OPEN_READONLY, and SQLITE_OPEN_CREATE (without it,
  // SQLITE_OPEN_READWRITE alone: the file must exist). A URI's mode=ro, rw
  // or rwc may narrow them, never widen them.
  bool read_only = false;
  bool create_if_missing = true;
  // SQLITE_OPEN_URI: a path that starts with "file:" is a URI filename
  // (file:data.db?mode=ro, file::memory:, file:///abs/path%20name); without
  // it, it is the name of a file. The sqlite3 shell, and engine-shell, set
  // it. Paths ":memory:" (a private in-memory database) and "" (a private
  // temporary database, deleted on close) mean the same either way.
  bool uri = false;
  // Where the database and its journals live; null: the POSIX file system.
  // Not owned; must outlive the Database. Tests pass a simulated disk. A
  // ":memory:" database does not use it; a "" one takes its unnamed
  // temporary files from it.
  Env* env = nullptr;
};

}  // namespace engine
