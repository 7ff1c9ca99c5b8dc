// A database or journal file as the pager sees it: positioned reads and
// writes, fsync, truncation and SQLite's lock levels. The pager and the
// journals reach every file through this interface, obtained from an Env
// (engine/storage/env.h): the POSIX one in production, a simulated disk in
// the power-loss tests, memory for a `:memory:` database (mem_env.h).
//
// Pages are read and written whole, so one virtual call per I/O costs
// nothing measurable; nothing here is called per row.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "engine/status.h"

namespace engine {

// SQLite's lock levels and lock bytes (os.h): a lock is a byte-range lock
// around offset 1 GiB, the page that holds it is never used for data.
enum class LockLevel { kNone, kShared, kReserved, kPending, kExclusive };
inline constexpr off_t kPendingByte = 0x40000000;
inline constexpr off_t kReservedByte = kPendingByte + 1;
inline constexpr off_t kSharedFirst = kPendingByte + 2;
inline constexpr off_t kSharedSize = 510;

class File {
 public:
  // kCreate opens read-write and creates the file when it is missing.
  enum class Mode { kReadOnly, kReadWrite, kCreate };

  explicit File(std::string path) : path_(std::move(path)) {}
  virtual ~File() = default;
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Reads exactly n bytes at off; bytes past the end of the file read as
  // zero and *got (if given) tells how many were really there.
  virtual Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got = nullptr) = 0;
  virtual Status WriteAt(uint64_t off, const void* buf, size_t n) = 0;
  // Makes the file's bytes and size durable (fdatasync); not its name: see
  // Env::SyncDir.
  virtual Status Sync() = 0;
  virtual Status Truncate(uint64_t size) = 0;
  virtual Result<uint64_t> Size() const = 0;
  const std::string& path() const { return path_; }

  // Moves this process's lock on the file to `level` (up or down), without
  // waiting: a conflicting lock held by another process gives Busy.
  virtual Status Lock(LockLevel level) = 0;
  LockLevel lock_level() const { return lock_; }
  // True when another process holds RESERVED or higher (a writer is active),
  // which is what decides whether a journal is hot.
  virtual Result<bool> OtherHasReserved() const = 0;

 protected:
  LockLevel lock_ = LockLevel::kNone;  // kept by the implementation's Lock

 private:
  std::string path_;
};

}  // namespace engine
