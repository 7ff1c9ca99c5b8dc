// The pager: a bounded cache of database pages over one file, the database
// header, the freelist, and atomic commit through the rollback journal.
//
// Every B-tree page access goes through Get(), so it must be cheap: pages are
// found by direct index (no hashing), pinned by a counter, and evicted by a
// CLOCK sweep that reuses page buffers (no allocation in steady state).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/options.h"  // DatabaseOptions (PagerOptions), Synchronous
#include "engine/status.h"
#include "engine/storage/env.h"
#include "engine/storage/file.h"
#include "engine/storage/journal.h"
#include "engine/storage/statement_journal.h"

namespace engine {

// The pager takes the database's options as they are (engine/options.h):
// every one of them is about the file and its cache.
using PagerOptions = DatabaseOptions;

// Offsets of the 100-byte database header (file format section 1.3).
namespace hdr {
inline constexpr int kPageSize = 16;
inline constexpr int kWriteVersion = 18;
inline constexpr int kReadVersion = 19;
inline constexpr int kReserved = 20;
inline constexpr int kChangeCounter = 24;
inline constexpr int kPageCount = 28;
inline constexpr int kFreelistTrunk = 32;
inline constexpr int kFreelistCount = 36;
inline constexpr int kSchemaCookie = 40;
inline constexpr int kSchemaFormat = 44;
inline constexpr int kTextEncoding = 56;
inline constexpr int kVersionValidFor = 92;
inline constexpr int kLibraryVersion = 96;
}  // namespace hdr
inline constexpr int kDbHeaderSize = 100;

class Pager;

struct CachedPage {
  uint32_t pgno = 0;  // 0: frame is free
  uint32_t pins = 0;
  bool dirty = false;
  bool referenced = false;  // CLOCK bit
  // The B-tree's parse of this page's header, kept with the page so that a
  // descent through a clean page does not parse it again. Valid only while
  // `parsed` is set: the pager clears it whenever the bytes may have changed
  // (a load, a reuse of the frame, a reload, any change of `dirty`), and it
  // is neither stored nor used while the page is dirty.
  bool parsed = false;
  alignas(8) unsigned char parsed_header[48];
  std::unique_ptr<uint8_t[]> data;
};

// A pinned page: the page stays in the cache (and its bytes stay put) while
// a PageRef to it lives.
class PageRef {
 public:
  PageRef() = default;
  PageRef(PageRef&& o) noexcept : page_(o.page_) { o.page_ = nullptr; }
  PageRef& operator=(PageRef&& o) noexcept {
    if (this != &o) {
      Release();
      page_ = o.page_;
      o.page_ = nullptr;
    }
    return *this;
  }
  PageRef(const PageRef&) = delete;
  PageRef& operator=(const PageRef&) = delete;
  ~PageRef() { Release(); }

  explicit operator bool() const { return page_ != nullptr; }
  uint32_t pgno() const { return page_->pgno; }
  const uint8_t* data() const { return page_->data.get(); }
  // Valid only after Pager::MakeWritable() on this page in the current
  // write transaction.
  uint8_t* mutable_data() { return page_->data.get(); }
  bool writable() const { return page_ && page_->dirty; }
  // See CachedPage::parsed. load_parsed copies a stored parse into `out`
  // and says whether there was one.
  bool load_parsed(void* out, size_t n) const {
    if (!page_->parsed || page_->dirty || n > sizeof page_->parsed_header) return false;
    std::memcpy(out, page_->parsed_header, n);
    return true;
  }
  void store_parsed(const void* in, size_t n) {
    if (page_->dirty || n > sizeof page_->parsed_header) return;
    std::memcpy(page_->parsed_header, in, n);
    page_->parsed = true;
  }
  void Release() {
    if (page_) --page_->pins;
    page_ = nullptr;
  }

 private:
  friend class Pager;
  explicit PageRef(CachedPage* p) : page_(p) { ++p->pins; }
  CachedPage* page_ = nullptr;
};

class Pager {
 public:
  // Opens (or creates) a database. A hot journal left by a crashed writer is
  // rolled back first. A new file gets page 1: the header and an empty
  // sqlite_schema leaf.
  static Result<std::unique_ptr<Pager>> Open(const std::string& path, const PagerOptions& opts);
  ~Pager();
  Pager(const Pager&) = delete;
  Pager& operator=(const Pager&) = delete;

  uint32_t page_size() const { return page_size_; }
  uint32_t usable_size() const { return usable_size_; }
  uint32_t page_count() const { return page_count_; }
  const std::string& path() const { return path_; }
  // Named files, memory or unnamed temporary files (Env::Kind).
  Env::Kind storage_kind() const { return env_->kind(); }
  // Where the database's files come from; scratch files (an index build's
  // sorted runs) are taken from it too.
  Env* env() const { return env_; }
  // The cache's bound in bytes: what an index build may hold in memory.
  size_t cache_bytes() const { return opts_.cache_pages * page_size_; }
  uint32_t lock_byte_page() const { return static_cast<uint32_t>(kPendingByte / page_size_) + 1; }

  Result<PageRef> Get(uint32_t pgno);
  // Get's common case inline: the page pinned when it is cached, else an
  // empty PageRef (then Get reads it, or says why it cannot). A B-tree
  // descent asks for a page per level (read_join: a descent per row).
  PageRef GetCached(uint32_t pgno) {
    // pgno 0 wraps round and fails the first test.
    if (pgno - 1 < page_count_ && pgno < by_pgno_.size()) {
      if (CachedPage* f = by_pgno_[pgno]) {
        f->referenced = true;
        return PageRef(f);
      }
    }
    return PageRef();
  }
  Status MakeWritable(PageRef& page);
  Result<PageRef> Allocate();
  Status Free(uint32_t pgno);

  Status BeginRead();
  Status EndRead();
  Status BeginWrite();
  Status Commit();
  Status Rollback();
  bool in_read() const { return in_read_; }
  bool in_write() const { return in_write_; }

  // A statement savepoint inside the write transaction: RollbackStatement()
  // returns every page, the page count and the header to where they were at
  // BeginStatement(), and the transaction stays open; EndStatement() keeps
  // the statement's changes. Commit and Rollback end an open statement.
  Status BeginStatement();
  void EndStatement() { stmt_.Clear(); }
  Status RollbackStatement();
  bool in_statement() const { return stmt_.active(); }
  // Pages made writable or appended since the pager opened: equal before
  // and after a statement, the statement changed nothing (how a statement
  // run without a savepoint knows whether its failure left anything).
  uint64_t write_count() const { return write_count_; }

  uint32_t schema_cookie() const { return header_u32(hdr::kSchemaCookie); }
  Status SetSchemaCookie(uint32_t v);
  uint32_t header_u32(int offset) const;
  uint32_t freelist_count() const { return header_u32(hdr::kFreelistCount); }

  // Cache statistics, for tests and for tuning.
  size_t cached_pages() const;
  uint64_t page_reads() const { return page_reads_; }

 private:
  Pager(std::string path, Env* env, std::unique_ptr<File> file, const PagerOptions& opts);
  Status LoadHeader();
  Status RecoverHotJournal();
  Status InitNewDatabase();
  Result<CachedPage*> Frame(uint32_t pgno);
  Result<CachedPage*> FreeFrame();
  Status Spill();
  Status WriteDirty(bool only_unpinned);
  Status SetHeaderU32(int offset, uint32_t v);
  void DropCache();
  Status ReloadPinned();

  std::string path_;
  Env* env_;  // opts.env, or the POSIX one
  std::unique_ptr<File> file_;
  PagerOptions opts_;
  uint32_t page_size_ = 0;
  uint32_t usable_size_ = 0;
  uint32_t page_count_ = 0;       // pages in the database, this transaction's view
  uint32_t orig_page_count_ = 0;  // at the start of the write transaction
  uint32_t change_counter_ = 0;   // last seen on disk, to detect other writers
  bool in_read_ = false;
  bool in_write_ = false;
  bool spilled_ = false;                // database file changed inside the open transaction
  bool implicit_read_ = false;          // BeginWrite opened the read; Commit/Rollback close it
  uint8_t header_[kDbHeaderSize] = {};  // copy of page 1's first 100 bytes

  std::vector<std::unique_ptr<CachedPage>> frames_;
  std::vector<CachedPage*> by_pgno_;  // index: pgno -> frame, or null
  size_t clock_hand_ = 0;
  std::vector<CachedPage*> dirty_;
  void MarkJournaled(uint32_t pgno) {
    journaled_[pgno] = true;
    journaled_list_.push_back(pgno);
  }
  std::vector<bool> journaled_;           // by pgno, within the write transaction
  std::vector<bool> freed_;               // by pgno: freed within the write transaction
  std::vector<uint32_t> journaled_list_;  // the bits set in journaled_, to clear them
  std::vector<uint32_t> freed_list_;      // likewise for freed_
  std::unique_ptr<JournalWriter> journal_;
  JournalBuffer journal_buffer_;  // lent to every transaction's journal_
  StatementJournal stmt_;
  uint64_t write_count_ = 0;
  uint8_t stmt_header_[kDbHeaderSize] = {};  // header_ when the statement began
  uint64_t page_reads_ = 0;
};

}  // namespace engine
