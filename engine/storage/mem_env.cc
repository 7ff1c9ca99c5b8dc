#include "engine/storage/mem_env.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace engine {
namespace {

// One file's bytes, shared by every handle open on its name and kept alive
// by them after Delete, as POSIX keeps an unlinked file for its descriptors
// (a rollback plays the journal back through a second handle).
class Store {
 public:
  virtual ~Store() = default;
  virtual Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) = 0;
  virtual Status WriteAt(uint64_t off, const void* buf, size_t n) = 0;
  virtual Status Truncate(uint64_t size) = 0;
  virtual Result<uint64_t> Size() const = 0;
};

// Bytes in fixed-size chunks rather than one vector: growing a large
// database never copies it, and a truncation gives the memory back. A chunk
// holds a whole number of pages of any page size (at most 64 KiB), so a page
// read or write touches one chunk.
class MemStore final : public Store {
 public:
  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override {
    auto* out = static_cast<uint8_t*>(buf);
    const size_t have = off >= size_ ? 0 : static_cast<size_t>(std::min<uint64_t>(n, size_ - off));
    ForEachChunk(off, have, [&](uint8_t* chunk, size_t done, size_t len) {
      std::memcpy(out + done, chunk, len);
    });
    std::memset(out + have, 0, n - have);
    if (got != nullptr) *got = have;
    return Status::OK();
  }

  Status WriteAt(uint64_t off, const void* buf, size_t n) override {
    if (n == 0) return Status::OK();  // as pwrite: no bytes, no growth
    const auto* in = static_cast<const uint8_t*>(buf);
    if (off + n > size_) Resize(off + n);
    ForEachChunk(off, n, [&](uint8_t* chunk, size_t done, size_t len) {
      std::memcpy(chunk, in + done, len);
    });
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    Resize(size);
    return Status::OK();
  }

  Result<uint64_t> Size() const override { return size_; }

 private:
  static constexpr size_t kChunk = size_t{1} << 16;

  // Calls fn(chunk bytes, bytes done so far, length) over [off, off + n),
  // which lies within size_.
  template <typename Fn>
  void ForEachChunk(uint64_t off, size_t n, Fn fn) {
    size_t done = 0;
    while (done < n) {
      const uint64_t at = off + done;
      const size_t in_chunk = static_cast<size_t>(at % kChunk);
      const size_t len = std::min(n - done, kChunk - in_chunk);
      fn(chunks_[static_cast<size_t>(at / kChunk)].get() + in_chunk, done, len);
      done += len;
    }
  }

  // Bytes past the old end read as zero, as in a file extended by a write
  // past its end or by ftruncate: every byte of a chunk past size_ is kept
  // zero.
  void Resize(uint64_t size) {
    const size_t want = static_cast<size_t>((size + kChunk - 1) / kChunk);
    if (size < size_ && size % kChunk != 0) {
      const size_t keep = static_cast<size_t>(size % kChunk);
      std::memset(chunks_[want - 1].get() + keep, 0, kChunk - keep);
    }
    const size_t had = chunks_.size();
    chunks_.resize(want);  // frees the dropped chunks
    for (size_t i = had; i < want; ++i) {
      chunks_[i].reset(new uint8_t[kChunk]);
      std::memset(chunks_[i].get(), 0, kChunk);
    }
    size_ = size;
  }

  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  uint64_t size_ = 0;
};

// Bytes in an unnamed temporary file of the base Env.
class TempFileStore final : public Store {
 public:
  explicit TempFileStore(std::unique_ptr<File> file) : file_(std::move(file)) {}
  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override {
    return file_->ReadAt(off, buf, n, got);
  }
  Status WriteAt(uint64_t off, const void* buf, size_t n) override {
    return file_->WriteAt(off, buf, n);
  }
  Status Truncate(uint64_t size) override { return file_->Truncate(size); }
  Result<uint64_t> Size() const override { return file_->Size(); }

 private:
  std::unique_ptr<File> file_;
};

class ScratchFile final : public File {
 public:
  ScratchFile(std::string path, std::shared_ptr<Store> store, bool read_only)
      : File(std::move(path)), store_(std::move(store)), read_only_(read_only) {}

  Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override {
    return store_->ReadAt(off, buf, n, got);
  }
  Status WriteAt(uint64_t off, const void* buf, size_t n) override {
    if (read_only_) return Status::IOError("write to a file opened read-only: " + path());
    return store_->WriteAt(off, buf, n);
  }
  // Nothing survives a crash, so nothing needs to be durable.
  Status Sync() override { return Status::OK(); }
  Status Truncate(uint64_t size) override {
    if (read_only_) return Status::IOError("truncation of a file opened read-only: " + path());
    return store_->Truncate(size);
  }
  Result<uint64_t> Size() const override { return store_->Size(); }
  // No other process or connection can name the file: the level is only
  // recorded, for the pager's bookkeeping.
  Status Lock(LockLevel level) override {
    lock_ = level;
    return Status::OK();
  }
  Result<bool> OtherHasReserved() const override { return false; }

 private:
  std::shared_ptr<Store> store_;
  bool read_only_;
};

class ScratchEnv final : public Env {
 public:
  // base null: the bytes are in memory.
  explicit ScratchEnv(Env* base) : base_(base) {}

  Result<std::unique_ptr<File>> Open(const std::string& path, File::Mode mode) override {
    auto it = files_.find(path);
    if (it == files_.end()) {
      if (mode != File::Mode::kCreate) return Status::IOError("cannot open " + path + ": no file");
      ENGINE_ASSIGN_OR_RETURN(std::shared_ptr<Store> store, NewStore());
      it = files_.emplace(path, std::move(store)).first;
    }
    return std::unique_ptr<File>(new ScratchFile(path, it->second, mode == File::Mode::kReadOnly));
  }

  Result<std::unique_ptr<File>> OpenTemp() override {
    ENGINE_ASSIGN_OR_RETURN(std::shared_ptr<Store> store, NewStore());
    return std::unique_ptr<File>(new ScratchFile("", std::move(store), /*read_only=*/false));
  }

  bool Exists(const std::string& path) override { return files_.count(path) != 0; }

  Status Delete(const std::string& path) override {
    files_.erase(path);
    return Status::OK();
  }

  Status SyncDir(const std::string&) override { return Status::OK(); }

  Kind kind() const override { return base_ == nullptr ? Kind::kMemory : Kind::kTemporary; }

 private:
  Result<std::shared_ptr<Store>> NewStore() {
    if (base_ == nullptr) return std::shared_ptr<Store>(new MemStore);
    ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<File> f, base_->OpenTemp());
    return std::shared_ptr<Store>(new TempFileStore(std::move(f)));
  }

  Env* base_;
  std::map<std::string, std::shared_ptr<Store>> files_;
};

}  // namespace

std::unique_ptr<Env> NewMemEnv() { return std::make_unique<ScratchEnv>(nullptr); }

std::unique_ptr<Env> NewTempFileEnv(Env* base) { return std::make_unique<ScratchEnv>(base); }

}  // namespace engine
