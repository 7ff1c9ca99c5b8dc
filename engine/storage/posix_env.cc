#include "engine/storage/posix_env.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace engine {
namespace {

std::atomic<uint64_t> g_crash_countdown{0};

// Counts one write or sync toward the crash-test countdown.
void MaybeCrash() {
  uint64_t n = g_crash_countdown.load(std::memory_order_relaxed);
  if (n == 0) return;
  if (n == 1) raise(SIGKILL);
  g_crash_countdown.store(n - 1, std::memory_order_relaxed);
}

Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path + ": " + std::strerror(errno));
}

class PosixFile final : public File {
 public:
  PosixFile(int fd, std::string path) : File(std::move(path)), fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override;
  Status WriteAt(uint64_t off, const void* buf, size_t n) override;
  Status Sync() override;
  Status Truncate(uint64_t size) override;
  Result<uint64_t> Size() const override;
  Status Lock(LockLevel level) override;
  Result<bool> OtherHasReserved() const override;

 private:
  Status SetRange(short type, off_t start, off_t len);
  int fd_;
};

class PosixEnv final : public Env {
 public:
  Result<std::unique_ptr<File>> Open(const std::string& path, File::Mode mode) override;
  Result<std::unique_ptr<File>> OpenTemp() override;
  bool Exists(const std::string& path) override;
  Status Delete(const std::string& path) override;
  Status SyncDir(const std::string& path) override;
};

}  // namespace

void SetCrashAfterFileOps(uint64_t n) { g_crash_countdown.store(n); }

Env* Env::Default() {
  static PosixEnv* env = new PosixEnv;  // never destroyed: files may outlive main's locals
  return env;
}

Result<std::unique_ptr<File>> PosixEnv::Open(const std::string& path, File::Mode mode) {
  int flags = O_CLOEXEC;
  switch (mode) {
    case File::Mode::kReadOnly:
      flags |= O_RDONLY;
      break;
    case File::Mode::kReadWrite:
      flags |= O_RDWR;
      break;
    case File::Mode::kCreate:
      flags |= O_RDWR | O_CREAT;
      break;
  }
  int fd;
  do {
    fd = ::open(path.c_str(), flags, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Errno("cannot open", path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError("not a regular file: " + path);
  }
  return std::unique_ptr<File>(new PosixFile(fd, path));
}

Result<std::unique_ptr<File>> PosixEnv::OpenTemp() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string tmpl = (dir / "engine-stmt-XXXXXX").string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) return Status::IOError("cannot create a statement journal in " + dir.string());
  ::close(fd);
  auto f = Open(tmpl, File::Mode::kReadWrite);
  // Unlinked at once: the file lives as long as the descriptor, and a crash
  // leaves nothing behind (the rollback journal alone restores the database).
  // A name that cannot be unlinked is only litter in the temporary folder.
  (void)::unlink(tmpl.c_str());
  return f;
}

Status PosixFile::ReadAt(uint64_t off, void* buf, size_t n, size_t* got) {
  auto* p = static_cast<uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd_, p + done, n - done, static_cast<off_t>(off + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return Errno("read failed on", path());
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  if (done < n) std::memset(p + done, 0, n - done);
  if (got) *got = done;
  return Status::OK();
}

Status PosixFile::WriteAt(uint64_t off, const void* buf, size_t n) {
  MaybeCrash();
  const auto* p = static_cast<const uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::pwrite(fd_, p + done, n - done, static_cast<off_t>(off + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return Errno("write failed on", path());
    }
    done += static_cast<size_t>(r);
  }
  return Status::OK();
}

Status PosixFile::Sync() {
  MaybeCrash();
  if (::fdatasync(fd_) != 0) return Errno("fsync failed on", path());
  return Status::OK();
}

Status PosixFile::Truncate(uint64_t size) {
  MaybeCrash();
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return Errno("truncate failed on", path());
  return Status::OK();
}

Result<uint64_t> PosixFile::Size() const {
  struct stat st;
  if (fstat(fd_, &st) != 0) return Errno("stat failed on", path());
  return static_cast<uint64_t>(st.st_size);
}

bool PosixEnv::Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

Status PosixEnv::Delete(const std::string& path) {
  MaybeCrash();
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("cannot delete", path);
  return Status::OK();
}

Status PosixEnv::SyncDir(const std::string& path) {
  MaybeCrash();
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? std::string(".") : (slash == 0 ? "/" : path.substr(0, slash));
  int fd;
  do {
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Errno("cannot open directory", dir);
  // Some file systems refuse fsync on a directory (EINVAL): SQLite's unix VFS
  // ignores that too, since there is nothing more it could do.
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) {
    errno = err;
    return Errno("fsync failed on directory", dir);
  }
  return Status::OK();
}

Status PosixFile::SetRange(short type, off_t start, off_t len) {
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = start;
  fl.l_len = len;
  if (::fcntl(fd_, F_SETLK, &fl) != 0) {
    if (errno == EACCES || errno == EAGAIN) return Status::Busy("database is locked");
    return Errno("lock failed on", path());
  }
  return Status::OK();
}

// The same sequence as SQLite's unixLock/unixUnlock, so that both libraries
// see each other's readers and writers.
Status PosixFile::Lock(LockLevel level) {
  if (level == lock_) return Status::OK();
  if (level == LockLevel::kNone) {
    ENGINE_RETURN_IF_ERROR(SetRange(F_UNLCK, 0, 0));
    lock_ = LockLevel::kNone;
    return Status::OK();
  }
  if (level == LockLevel::kShared) {
    if (lock_ == LockLevel::kNone) {
      // A pending writer blocks new readers: take PENDING shared while
      // acquiring SHARED.
      ENGINE_RETURN_IF_ERROR(SetRange(F_RDLCK, kPendingByte, 1));
      Status st = SetRange(F_RDLCK, kSharedFirst, kSharedSize);
      Status un = SetRange(F_UNLCK, kPendingByte, 1);
      ENGINE_RETURN_IF_ERROR(st);
      ENGINE_RETURN_IF_ERROR(un);
    } else {
      // Downgrade from RESERVED/EXCLUSIVE.
      ENGINE_RETURN_IF_ERROR(SetRange(F_RDLCK, kSharedFirst, kSharedSize));
      ENGINE_RETURN_IF_ERROR(SetRange(F_UNLCK, kPendingByte, 2));
    }
    lock_ = LockLevel::kShared;
    return Status::OK();
  }
  if (lock_ == LockLevel::kNone) return Status::InvalidArgument("lock upgrade without SHARED");
  if (level == LockLevel::kReserved) {
    ENGINE_RETURN_IF_ERROR(SetRange(F_WRLCK, kReservedByte, 1));
    lock_ = LockLevel::kReserved;
    return Status::OK();
  }
  // PENDING then EXCLUSIVE: the write lock on the shared range fails while
  // any reader holds SHARED.
  if (lock_ < LockLevel::kPending) {
    ENGINE_RETURN_IF_ERROR(SetRange(F_WRLCK, kPendingByte, 1));
    lock_ = LockLevel::kPending;
  }
  if (level == LockLevel::kExclusive) {
    ENGINE_RETURN_IF_ERROR(SetRange(F_WRLCK, kSharedFirst, kSharedSize));
    lock_ = LockLevel::kExclusive;
  }
  return Status::OK();
}

Result<bool> PosixFile::OtherHasReserved() const {
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = kReservedByte;
  fl.l_len = 1;
  if (::fcntl(fd_, F_GETLK, &fl) != 0) return Errno("lock query failed on", path());
  return fl.l_type != F_UNLCK;
}

}  // namespace engine
