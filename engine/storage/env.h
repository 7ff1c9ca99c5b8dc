// The engine's only way to the file system (LevelDB's Env, SQLite's VFS):
// opening files, names (exists, delete) and the durability of names
// (directory sync). The pager takes one from PagerOptions::env; nothing else
// in the engine touches files. Env::Default() is the POSIX one; tests put a
// simulated disk in its place (engine/testing/fault_injection_env.h).
#pragma once

#include <memory>
#include <string>

#include "engine/status.h"
#include "engine/storage/file.h"

namespace engine {

class Env {
 public:
  virtual ~Env() = default;

  // The process-wide POSIX implementation; never destroyed.
  static Env* Default();

  virtual Result<std::unique_ptr<File>> Open(const std::string& path, File::Mode mode) = 0;
  // A scratch file with no name (the statement journal's spill): gone when
  // closed, never needed after a crash.
  virtual Result<std::unique_ptr<File>> OpenTemp() = 0;
  virtual bool Exists(const std::string& path) = 0;
  // Removes the name; a missing file is not an error.
  virtual Status Delete(const std::string& path) = 0;
  // Makes the creation or deletion of names in the directory holding
  // `path` durable (fsync of the directory, SQLite's DIRSYNC): without it a
  // power cut may forget that a journal was created — or deleted.
  virtual Status SyncDir(const std::string& path) = 0;

  // What the databases of this Env are, for what PRAGMA journal_mode and
  // database_list answer: named files that other connections may open, or
  // files only this Env can name (engine/storage/mem_env.h) — in memory
  // (`:memory:`, whose journal is SQLite's journal_mode=MEMORY) or in
  // unnamed temporary files (`""`).
  enum class Kind { kFiles, kMemory, kTemporary };
  virtual Kind kind() const { return Kind::kFiles; }

 protected:
  Env() = default;
};

}  // namespace engine
