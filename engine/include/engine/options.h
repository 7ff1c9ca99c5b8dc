// How a Database is opened: the settings a user of the library chooses. The
// engine maps them onto its internals (the pager's cache and commit), which
// stay out of the public headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace engine {

// PRAGMA synchronous: how a commit waits for the disk. kOff: no fsync at all;
// kNormal: the journal and the database file are synced at commit; kFull: as
// kNormal, and the journal once more after its record count is written.
enum class Synchronous { kOff, kNormal, kFull };

struct DatabaseOptions {
  size_t cache_pages = 2000;  // bound on cached pages (at least 16)
  uint32_t page_size = 4096;  // for a new, empty file only
  Synchronous synchronous = Synchronous::kFull;
  bool read_only = false;
  bool create_if_missing = true;
};

}  // namespace engine
