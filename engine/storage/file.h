// A database or journal file: positioned reads and writes, fsync, and the
// POSIX advisory byte-range locks of SQLite's unix VFS, so that the engine
// and the real sqlite3 never write the same file at the same time.
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
  enum class Mode { kReadOnly, kReadWrite, kCreate };
  static Result<std::unique_ptr<File>> Open(const std::string& path, Mode mode);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Reads exactly n bytes at off; bytes past the end of the file read as
  // zero and *got (if given) tells how many were really there.
  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got = nullptr);
  Status WriteAt(uint64_t off, const void* buf, size_t n);
  Status Sync();
  Status Truncate(uint64_t size);
  Result<uint64_t> Size() const;
  const std::string& path() const { return path_; }

  // Moves this process's lock on the file to `level` (up or down), without
  // waiting: a conflicting lock held by another process gives Busy.
  Status Lock(LockLevel level);
  LockLevel lock_level() const { return lock_; }
  // True when another process holds RESERVED or higher (a writer is active),
  // which is what decides whether a journal is hot.
  Result<bool> OtherHasReserved() const;

  static bool Exists(const std::string& path);
  static Status Delete(const std::string& path);

 private:
  File(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  Status SetRange(short type, off_t start, off_t len);
  int fd_;
  std::string path_;
  LockLevel lock_ = LockLevel::kNone;
};

// Crash-test hook: after `n` more writes or syncs (n >= 1) through any File,
// the process kills itself with SIGKILL, as a crash would. 0 disables it.
// Used only by the crash-recovery tests, which run it in a forked child.
void SetCrashAfterFileOps(uint64_t n);

}  // namespace engine
