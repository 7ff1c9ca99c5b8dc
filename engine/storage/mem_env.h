// Envs for the databases no other connection can open: SQLite's `:memory:`
// and `""` (a private temporary database). Their names (the database, its
// journal) live in the Env object alone, so there is no one to lock against,
// nothing to sync and nothing to recover after a crash: locks only record
// their level, Sync and SyncDir do nothing. The pager runs over them
// unchanged, with its rollback journal and statement journal as files of the
// same Env, which is how transactions, ROLLBACK and statement undo keep
// working; the database-file path pays nothing for them (no new branch or
// virtual call: the pager reaches every Env through the same interface).
#pragma once

#include <memory>

#include "engine/storage/env.h"

namespace engine {

// Every file's bytes in memory: a `:memory:` database and its journals
// (journal_mode=MEMORY, as SQLite has it for in-memory databases). The bytes
// go with the Env.
std::unique_ptr<Env> NewMemEnv();

// Every file's bytes in an unnamed temporary file of `base` (Env::OpenTemp:
// created then unlinked at once, so that nothing is left behind even after a
// crash): a `""` database and its journal. SQLite keeps such a database in
// its page cache until it spills; here it is on disk from the start, in the
// temporary directory, and the page cache bounds its memory like any file's.
// `base` is not owned and must outlive the Env.
std::unique_ptr<Env> NewTempFileEnv(Env* base);

}  // namespace engine
