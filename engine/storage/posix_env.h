// The production Env: POSIX files with the advisory byte-range locks of
// SQLite's unix VFS, so that the engine and the real sqlite3 never write
// the same file at the same time.
#pragma once

#include <cstdint>

#include "engine/storage/env.h"

namespace engine {

// Crash-test hook: after `n` more writes, syncs, truncations, deletions or
// directory syncs through the POSIX Env, the process kills itself with
// SIGKILL, as a crash would. 0 disables it. Used only by the crash-recovery
// tests, which run it in a forked child.
void SetCrashAfterFileOps(uint64_t n);

}  // namespace engine
