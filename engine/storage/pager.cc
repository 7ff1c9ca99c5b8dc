#include "engine/storage/pager.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/util/coding.h"

namespace engine {
namespace {

constexpr char kMagic[16] = "SQLite format 3";       // with its NUL: 16 bytes
constexpr uint32_t kLibraryVersionNumber = 3040001;  // written like SQLite 3.40.1 would
constexpr size_t kMinCachePages = 16;

bool ValidPageSize(uint32_t n) { return n >= 512 && n <= 65536 && (n & (n - 1)) == 0; }

std::string PageMsg(uint32_t pgno, uint32_t count) {
  return "page " + std::to_string(pgno) + " is out of range (database has " +
         std::to_string(count) + " pages)";
}

}  // namespace

Pager::Pager(std::string path, Env* env, std::unique_ptr<File> file, const PagerOptions& opts)
    : path_(std::move(path)), env_(env), file_(std::move(file)), opts_(opts), stmt_(env) {
  opts_.cache_pages = std::max(opts_.cache_pages, kMinCachePages);
}

Pager::~Pager() {
  // No caller to report to: a failed rollback leaves a hot journal, which the
  // next open recovers; a failed unlock ends with the descriptor.
  if (in_write_) (void)Rollback();
  if (in_read_) (void)EndRead();
}

Result<std::unique_ptr<Pager>> Pager::Open(const std::string& path, const PagerOptions& opts) {
  Env* env = opts.env != nullptr ? opts.env : Env::Default();
  bool exists = env->Exists(path);
  if (!exists && (opts.read_only || !opts.create_if_missing)) {
    // sqlite3's words (SQLITE_CANTOPEN), which the shell prints after the name.
    return Status::NotFound("unable to open database file");
  }
  if (!ValidPageSize(opts.page_size)) {
    return Status::InvalidArgument("page size must be a power of two in [512, 65536]");
  }
  auto file = env->Open(path, opts.read_only ? File::Mode::kReadOnly : File::Mode::kCreate);
  // A folder that does not exist, or no permission: sqlite3 says no more.
  if (!file.ok()) return Status::IOError("unable to open database file");
  std::unique_ptr<Pager> pager(new Pager(path, env, std::move(*file), opts));
  ENGINE_RETURN_IF_ERROR(pager->BeginRead());  // recovers a hot journal, loads the header
  Status st = Status::OK();
  if (pager->page_count_ == 0) {
    if (opts.read_only) {
      st = Status::InvalidArgument("empty database file opened read-only: " + path);
    } else {
      st = pager->InitNewDatabase();
    }
  }
  if (pager->in_read_) {
    Status end = pager->EndRead();
    if (st.ok()) st = end;
  }
  ENGINE_RETURN_IF_ERROR(st);
  return pager;
}

Status Pager::LoadHeader() {
  ENGINE_ASSIGN_OR_RETURN(uint64_t size, file_->Size());
  if (size == 0) {
    page_size_ = opts_.page_size;
    usable_size_ = page_size_;
    page_count_ = 0;
    change_counter_ = 0;
    std::memset(header_, 0, sizeof header_);
    return Status::OK();
  }
  size_t got = 0;
  ENGINE_RETURN_IF_ERROR(file_->ReadAt(0, header_, kDbHeaderSize, &got));
  if (got < kDbHeaderSize || std::memcmp(header_, kMagic, 16) != 0) {
    return Status::Corruption("file is not a database: " + path_);
  }
  uint32_t ps = get_u16(header_ + hdr::kPageSize);
  if (ps == 1) ps = 65536;
  if (!ValidPageSize(ps)) {
    return Status::Corruption("invalid page size " + std::to_string(ps) + " in " + path_);
  }
  if (header_[hdr::kReadVersion] == 2 || header_[hdr::kWriteVersion] == 2) {
    return Status::NotSupported("WAL-mode database (run PRAGMA journal_mode=DELETE first): " +
                                path_);
  }
  if (header_[hdr::kReadVersion] > 2) {
    return Status::NotSupported("unknown file format read version in " + path_);
  }
  uint32_t reserved = header_[hdr::kReserved];
  if (ps - reserved < 480) return Status::Corruption("reserved space leaves too little room");
  if (header_[21] != 64 || header_[22] != 32 || header_[23] != 32) {
    return Status::Corruption("invalid payload fractions in the database header");
  }
  uint32_t enc = get_u32(header_ + hdr::kTextEncoding);
  if (enc > 1) return Status::NotSupported("only UTF-8 databases are supported");
  if (ps != page_size_ && !frames_.empty()) {
    // The page size changed under us (sqlite3 VACUUMed with a new size):
    // every frame buffer is the wrong size.
    frames_.clear();
    by_pgno_.clear();
    clock_hand_ = 0;
  }
  page_size_ = ps;
  usable_size_ = ps - reserved;
  change_counter_ = get_u32(header_ + hdr::kChangeCounter);
  uint32_t in_header = get_u32(header_ + hdr::kPageCount);
  // The in-header size is trusted only when the last writer understood it.
  if (in_header != 0 && get_u32(header_ + hdr::kVersionValidFor) == change_counter_) {
    page_count_ = in_header;
  } else {
    page_count_ = static_cast<uint32_t>(size / ps);
  }
  if (page_count_ == 0) return Status::Corruption("database header with no pages: " + path_);
  if (by_pgno_.size() < size_t{page_count_} + 1) by_pgno_.resize(size_t{page_count_} + 1, nullptr);
  return Status::OK();
}

Status Pager::RecoverHotJournal() {
  std::string jpath = JournalPath(path_);
  if (!env_->Exists(jpath)) return Status::OK();
  ENGINE_ASSIGN_OR_RETURN(bool writer, file_->OtherHasReserved());
  if (writer) return Status::OK();  // a live writer's journal, not a hot one
  if (opts_.read_only) {
    return Status::Busy("hot journal needs recovery but the database is opened read-only");
  }
  ENGINE_RETURN_IF_ERROR(file_->Lock(LockLevel::kExclusive));
  // The page size comes from the database header when there is one, else
  // from the journal itself.
  uint8_t buf[28] = {};
  uint32_t ps = 0;
  size_t got = 0;
  ENGINE_RETURN_IF_ERROR(file_->ReadAt(0, buf, 18, &got));
  if (got >= 18 && std::memcmp(buf, kMagic, 16) == 0) {
    ps = get_u16(buf + hdr::kPageSize);
    if (ps == 1) ps = 65536;
  }
  if (!ValidPageSize(ps)) {
    ENGINE_ASSIGN_OR_RETURN(auto jf, env_->Open(jpath, File::Mode::kReadOnly));
    ENGINE_RETURN_IF_ERROR(jf->ReadAt(0, buf, 28, &got));
    ps = get_u32(buf + 24);
  }
  if (ValidPageSize(ps)) {
    auto played = PlaybackJournal(*env_, *file_, jpath, ps, /*hot=*/true);
    if (!played.ok()) return played.status();
  }
  // The played-back file was synced: a deletion that a power cut forgets
  // only plays the same journal again.
  ENGINE_RETURN_IF_ERROR(env_->Delete(jpath));
  DropCache();
  return file_->Lock(LockLevel::kShared);
}

Status Pager::InitNewDatabase() {
  ENGINE_RETURN_IF_ERROR(BeginWrite());
  page_size_ = opts_.page_size;
  usable_size_ = page_size_;
  auto page = Allocate();
  if (!page.ok()) {
    (void)Rollback();  // best effort: the allocation's error is the one reported
    return page.status();
  }
  uint8_t* d = page->mutable_data();
  std::memcpy(d, kMagic, 16);
  put_u16(d + hdr::kPageSize, page_size_ == 65536 ? 1 : static_cast<uint16_t>(page_size_));
  d[hdr::kWriteVersion] = 1;
  d[hdr::kReadVersion] = 1;
  d[hdr::kReserved] = 0;
  d[21] = 64;
  d[22] = 32;
  d[23] = 32;
  put_u32(d + hdr::kSchemaFormat, 4);
  put_u32(d + hdr::kTextEncoding, 1);
  // sqlite_schema: an empty table-leaf page after the header.
  uint8_t* b = d + kDbHeaderSize;
  b[0] = 13;
  put_u16(b + 5, page_size_ == 65536 ? 0 : static_cast<uint16_t>(page_size_));
  std::memcpy(header_, d, kDbHeaderSize);
  return Commit();
}

uint32_t Pager::header_u32(int offset) const { return get_u32(header_ + offset); }

Status Pager::SetHeaderU32(int offset, uint32_t v) {
  ENGINE_ASSIGN_OR_RETURN(PageRef p1, Get(1));
  ENGINE_RETURN_IF_ERROR(MakeWritable(p1));
  put_u32(p1.mutable_data() + offset, v);
  put_u32(header_ + offset, v);
  return Status::OK();
}

Status Pager::SetSchemaCookie(uint32_t v) { return SetHeaderU32(hdr::kSchemaCookie, v); }

size_t Pager::cached_pages() const {
  size_t n = 0;
  for (const auto& f : frames_) n += f->pgno != 0;
  return n;
}

Result<CachedPage*> Pager::FreeFrame() {
  if (frames_.size() < opts_.cache_pages) {
    auto f = std::make_unique<CachedPage>();
    f->data.reset(new uint8_t[page_size_]);
    frames_.push_back(std::move(f));
    return frames_.back().get();
  }
  for (int round = 0; round < 2; ++round) {
    // Two sweeps clear every CLOCK bit once, so a clean unpinned frame is
    // found if one exists.
    for (size_t step = 0; step < 2 * frames_.size(); ++step) {
      CachedPage* f = frames_[clock_hand_].get();
      clock_hand_ = (clock_hand_ + 1) % frames_.size();
      if (f->pins != 0 || f->dirty) continue;
      if (f->pgno != 0 && f->referenced) {
        f->referenced = false;
        continue;
      }
      if (f->pgno != 0) by_pgno_[f->pgno] = nullptr;
      f->pgno = 0;
      f->parsed = false;
      return f;
    }
    // Every clean frame is pinned or the cache is full of dirty pages:
    // write unpinned dirty pages out (their originals are in the journal).
    if (round == 0 && in_write_) {
      ENGINE_RETURN_IF_ERROR(Spill());
    } else {
      break;
    }
  }
  // Everything is pinned: exceed the bound rather than fail.
  auto f = std::make_unique<CachedPage>();
  f->data.reset(new uint8_t[page_size_]);
  frames_.push_back(std::move(f));
  return frames_.back().get();
}

Result<PageRef> Pager::Get(uint32_t pgno) {
  if (PageRef cached = GetCached(pgno)) return cached;
  if (pgno == 0 || pgno > page_count_) return Status::Corruption(PageMsg(pgno, page_count_));
  if (pgno == lock_byte_page()) {
    return Status::Corruption("page " + std::to_string(pgno) + " is the lock-byte page");
  }
  ENGINE_ASSIGN_OR_RETURN(CachedPage * f, FreeFrame());
  size_t got = 0;
  ENGINE_RETURN_IF_ERROR(
      file_->ReadAt(uint64_t{pgno - 1} * page_size_, f->data.get(), page_size_, &got));
  ++page_reads_;
  if (got < page_size_) {
    return Status::Corruption("page " + std::to_string(pgno) +
                              " lies beyond the end of the file (truncated database?)");
  }
  if (by_pgno_.size() <= pgno) by_pgno_.resize(size_t{pgno} + 1, nullptr);
  f->pgno = pgno;
  f->dirty = false;
  f->parsed = false;
  f->referenced = true;
  by_pgno_[pgno] = f;
  return PageRef(f);
}

Status Pager::MakeWritable(PageRef& page) {
  if (!page) return Status::InvalidArgument("MakeWritable on an empty page reference");
  if (!in_write_)
    return Status::InvalidArgument("cannot modify a page outside a write transaction");
  ++write_count_;
  CachedPage* f = page.page_;
  const uint32_t pgno = f->pgno;
  // The open statement needs the image it started from, also of a page
  // already dirty from an earlier statement of the transaction.
  if (stmt_.active() && stmt_.NeedsSave(pgno)) {
    ENGINE_RETURN_IF_ERROR(stmt_.Save(pgno, f->data.get()));
  }
  if (f->dirty) return Status::OK();
  if (pgno <= orig_page_count_ && !journaled_[pgno]) {
    if (!journal_) {
      ENGINE_ASSIGN_OR_RETURN(journal_, JournalWriter::Create(*env_, JournalPath(path_), page_size_,
                                                              orig_page_count_, &journal_buffer_));
    }
    ENGINE_RETURN_IF_ERROR(journal_->Append(pgno, f->data.get()));
    MarkJournaled(pgno);
  }
  f->dirty = true;
  f->parsed = false;
  dirty_.push_back(f);
  return Status::OK();
}

Result<PageRef> Pager::Allocate() {
  if (!in_write_)
    return Status::InvalidArgument("cannot allocate a page outside a write transaction");
  uint32_t free_count = header_u32(hdr::kFreelistCount);
  uint32_t trunk_no = header_u32(hdr::kFreelistTrunk);
  if (free_count > 0 && trunk_no != 0) {
    ENGINE_ASSIGN_OR_RETURN(PageRef trunk, Get(trunk_no));
    uint32_t n = get_u32(trunk.data() + 4);
    if (n > usable_size_ / 4 - 2) {
      return Status::Corruption("freelist trunk page " + std::to_string(trunk_no) + " claims " +
                                std::to_string(n) + " leaves");
    }
    uint32_t pgno;
    bool leaf = false;
    if (n > 0) {
      leaf = true;
      pgno = get_u32(trunk.data() + 8 + 4 * (n - 1));
      if (pgno < 2 || pgno > page_count_ || pgno == lock_byte_page()) {
        return Status::Corruption("freelist leaf " + std::to_string(pgno) + " out of range");
      }
      ENGINE_RETURN_IF_ERROR(MakeWritable(trunk));
      put_u32(trunk.mutable_data() + 4, n - 1);
    } else {
      pgno = trunk_no;
      ENGINE_RETURN_IF_ERROR(SetHeaderU32(hdr::kFreelistTrunk, get_u32(trunk.data())));
    }
    trunk.Release();
    ENGINE_RETURN_IF_ERROR(SetHeaderU32(hdr::kFreelistCount, free_count - 1));
    // A freelist leaf that was free when the transaction began holds no
    // content anyone reads: a rollback puts it back on the list. So, as
    // SQLite does (PAGER_GET_NOCONTENT), it is neither read nor journaled.
    // One freed by this transaction held live data at its start: that
    // image must be journaled like any other.
    const bool no_content = leaf && pgno <= orig_page_count_ && !journaled_[pgno] &&
                            !(pgno < freed_.size() && freed_[pgno]);
    PageRef page;
    CachedPage* cached = pgno < by_pgno_.size() ? by_pgno_[pgno] : nullptr;
    if (no_content && cached == nullptr) {
      ENGINE_ASSIGN_OR_RETURN(CachedPage * f, FreeFrame());
      if (by_pgno_.size() <= pgno) by_pgno_.resize(size_t{pgno} + 1, nullptr);
      f->pgno = pgno;
      f->dirty = false;
      f->referenced = true;
      by_pgno_[pgno] = f;
      page = PageRef(f);
    } else {
      ENGINE_ASSIGN_OR_RETURN(page, Get(pgno));
    }
    if (no_content) MarkJournaled(pgno);
    ENGINE_RETURN_IF_ERROR(MakeWritable(page));
    std::memset(page.mutable_data(), 0, page_size_);
    return page;
  }
  uint32_t pgno = page_count_ + 1;
  if (pgno == lock_byte_page()) ++pgno;
  ENGINE_ASSIGN_OR_RETURN(CachedPage * f, FreeFrame());
  ++write_count_;
  page_count_ = pgno;
  if (by_pgno_.size() <= pgno) by_pgno_.resize(size_t{pgno} + 1, nullptr);
  std::memset(f->data.get(), 0, page_size_);
  f->pgno = pgno;
  f->referenced = true;
  f->dirty = true;
  by_pgno_[pgno] = f;
  dirty_.push_back(f);
  return PageRef(f);
}

Status Pager::Free(uint32_t pgno) {
  if (!in_write_) return Status::InvalidArgument("cannot free a page outside a write transaction");
  if (pgno < 2 || pgno > page_count_ || pgno == lock_byte_page()) {
    return Status::Corruption("cannot free " + PageMsg(pgno, page_count_));
  }
  uint32_t free_count = header_u32(hdr::kFreelistCount);
  uint32_t trunk_no = header_u32(hdr::kFreelistTrunk);
  if (freed_.size() <= pgno) freed_.resize(size_t{pgno} + 1, false);
  if (!freed_[pgno]) {
    freed_[pgno] = true;
    freed_list_.push_back(pgno);
  }
  if (trunk_no != 0) {
    ENGINE_ASSIGN_OR_RETURN(PageRef trunk, Get(trunk_no));
    uint32_t n = get_u32(trunk.data() + 4);
    // SQLite fills trunks only to usable/4 - 8 leaves, for compatibility
    // with old versions; so do we.
    if (n < usable_size_ / 4 - 8) {
      ENGINE_RETURN_IF_ERROR(MakeWritable(trunk));
      put_u32(trunk.mutable_data() + 8 + 4 * n, pgno);
      put_u32(trunk.mutable_data() + 4, n + 1);
      return SetHeaderU32(hdr::kFreelistCount, free_count + 1);
    }
  }
  ENGINE_ASSIGN_OR_RETURN(PageRef page, Get(pgno));
  ENGINE_RETURN_IF_ERROR(MakeWritable(page));
  std::memset(page.mutable_data(), 0, 8);
  put_u32(page.mutable_data(), trunk_no);
  ENGINE_RETURN_IF_ERROR(SetHeaderU32(hdr::kFreelistTrunk, pgno));
  return SetHeaderU32(hdr::kFreelistCount, free_count + 1);
}

Status Pager::BeginRead() {
  if (in_read_) return Status::OK();
  ENGINE_RETURN_IF_ERROR(file_->Lock(LockLevel::kShared));
  Status st = RecoverHotJournal();
  if (st.ok()) {
    // Another process may have committed since we last looked: the change
    // counter tells, and then nothing cached can be trusted.
    uint8_t buf[kDbHeaderSize];
    size_t got = 0;
    st = file_->ReadAt(0, buf, kDbHeaderSize, &got);
    if (st.ok() &&
        (page_size_ == 0 || got < kDbHeaderSize || std::memcmp(buf, header_, kDbHeaderSize) != 0)) {
      DropCache();
      st = LoadHeader();
    }
  }
  if (!st.ok()) {
    (void)file_->Lock(LockLevel::kNone);  // best effort: the read's error is the one reported
    return st;
  }
  in_read_ = true;
  return Status::OK();
}

Status Pager::EndRead() {
  if (in_write_) return Status::InvalidArgument("cannot end a read inside a write transaction");
  in_read_ = false;
  return file_->Lock(LockLevel::kNone);
}

Status Pager::BeginWrite() {
  if (opts_.read_only) return Status::InvalidArgument("attempt to write a readonly database");
  if (in_write_) return Status::InvalidArgument("cannot start a transaction within a transaction");
  implicit_read_ = !in_read_;
  ENGINE_RETURN_IF_ERROR(BeginRead());
  Status st = file_->Lock(LockLevel::kReserved);
  if (!st.ok()) {
    if (implicit_read_) (void)EndRead();  // best effort: the lock's error is the one reported
    return st;
  }
  in_write_ = true;
  spilled_ = false;
  orig_page_count_ = page_count_;
  // Clear only the bits the last transaction set: re-filling bitmaps of
  // the whole file cost more than a small transaction's own work.
  for (uint32_t p : journaled_list_) {
    if (p < journaled_.size()) journaled_[p] = false;
  }
  journaled_list_.clear();
  for (uint32_t p : freed_list_) {
    if (p < freed_.size()) freed_[p] = false;
  }
  freed_list_.clear();
  journaled_.resize(size_t{page_count_} + 1, false);
  freed_.resize(size_t{page_count_} + 1, false);
  return Status::OK();
}

Status Pager::WriteDirty(bool only_unpinned) {
  std::sort(dirty_.begin(), dirty_.end(),
            [](const CachedPage* a, const CachedPage* b) { return a->pgno < b->pgno; });
  size_t kept = 0;
  for (CachedPage* f : dirty_) {
    if (only_unpinned && f->pins != 0) {
      dirty_[kept++] = f;
      continue;
    }
    ENGINE_RETURN_IF_ERROR(
        file_->WriteAt(uint64_t{f->pgno - 1} * page_size_, f->data.get(), page_size_));
    f->dirty = false;
    f->parsed = false;
  }
  dirty_.resize(kept);
  return Status::OK();
}

Status Pager::Spill() {
  // The journal must hold page 1 before the file changes, so that a crash
  // now is undone by the journal (its header also records the original size).
  // Read straight from the file: going through the cache here could need
  // another spill.
  if (orig_page_count_ >= 1 && !journaled_[1]) {
    std::vector<uint8_t> p1(page_size_);
    ENGINE_RETURN_IF_ERROR(file_->ReadAt(0, p1.data(), page_size_));
    if (!journal_) {
      ENGINE_ASSIGN_OR_RETURN(journal_, JournalWriter::Create(*env_, JournalPath(path_), page_size_,
                                                              orig_page_count_, &journal_buffer_));
    }
    ENGINE_RETURN_IF_ERROR(journal_->Append(1, p1.data()));
    MarkJournaled(1);
  }
  if (journal_) {
    ENGINE_RETURN_IF_ERROR(journal_->Seal(opts_.synchronous != Synchronous::kOff,
                                          opts_.synchronous == Synchronous::kFull));
  }
  ENGINE_RETURN_IF_ERROR(file_->Lock(LockLevel::kExclusive));
  spilled_ = true;
  return WriteDirty(/*only_unpinned=*/true);
}

Status Pager::BeginStatement() {
  if (!in_write_) return Status::InvalidArgument("statement savepoint outside a write transaction");
  stmt_.Begin(page_size_, page_count_);
  std::memcpy(stmt_header_, header_, kDbHeaderSize);
  return Status::OK();
}

Status Pager::RollbackStatement() {
  if (!stmt_.active()) return Status::OK();
  // Pages the statement appended go first, so that restoring the others
  // (which may spill the cache) never writes them.
  const uint32_t keep = stmt_.page_count();
  for (auto& f : frames_) {
    if (f->pgno <= keep) continue;
    if (f->pgno < by_pgno_.size()) by_pgno_[f->pgno] = nullptr;
    // A stray reference still pinning it sees an empty page, not the
    // statement's bytes; the frame is reused once it is released.
    if (f->pins != 0) std::memset(f->data.get(), 0, page_size_);
    f->pgno = 0;
    f->dirty = false;
    f->parsed = false;
  }
  dirty_.erase(std::remove_if(dirty_.begin(), dirty_.end(),
                              [](const CachedPage* f) { return f->pgno == 0; }),
               dirty_.end());
  page_count_ = keep;
  std::memcpy(header_, stmt_header_, kDbHeaderSize);
  // Restored pages are marked dirty even where they equal the file: a spill
  // during the statement may have written the statement's version there.
  Status st;
  for (size_t i = 0; i < stmt_.size() && st.ok(); ++i) {
    const uint32_t pgno = stmt_.pgno(i);
    CachedPage* f = pgno < by_pgno_.size() ? by_pgno_[pgno] : nullptr;
    if (f == nullptr) {
      auto free = FreeFrame();
      if (!free.ok()) {
        st = free.status();
        break;
      }
      f = *free;
      if (by_pgno_.size() <= pgno) by_pgno_.resize(size_t{pgno} + 1, nullptr);
      f->pgno = pgno;
      by_pgno_[pgno] = f;
    }
    f->referenced = true;
    f->parsed = false;  // the bytes change under any parse kept with the frame
    st = stmt_.Read(i, f->data.get());
    if (st.ok() && !f->dirty) {
      f->dirty = true;
      dirty_.push_back(f);
    }
  }
  stmt_.Clear();
  return st;
}

Status Pager::Commit() {
  if (!in_write_) return Status::InvalidArgument("cannot commit - no transaction is active");
  stmt_.Clear();
  if (!dirty_.empty() || spilled_) {
    ENGINE_ASSIGN_OR_RETURN(PageRef p1, Get(1));
    ENGINE_RETURN_IF_ERROR(MakeWritable(p1));
    uint8_t* d = p1.mutable_data();
    uint32_t counter = get_u32(d + hdr::kChangeCounter) + 1;
    put_u32(d + hdr::kChangeCounter, counter);
    put_u32(d + hdr::kPageCount, page_count_);
    put_u32(d + hdr::kVersionValidFor, counter);
    put_u32(d + hdr::kLibraryVersion, kLibraryVersionNumber);
    std::memcpy(header_, d, kDbHeaderSize);
    p1.Release();
    bool sync = opts_.synchronous != Synchronous::kOff;
    if (journal_) {
      ENGINE_RETURN_IF_ERROR(journal_->Seal(sync, opts_.synchronous == Synchronous::kFull));
    }
    ENGINE_RETURN_IF_ERROR(file_->Lock(LockLevel::kExclusive));
    // From here on the file changes: a commit that fails before its commit
    // point must be rolled back from the journal, not just forgotten.
    spilled_ = true;
    ENGINE_RETURN_IF_ERROR(WriteDirty(/*only_unpinned=*/false));
    ENGINE_ASSIGN_OR_RETURN(uint64_t size, file_->Size());
    uint64_t want = uint64_t{page_count_} * page_size_;
    if (size != want) ENGINE_RETURN_IF_ERROR(file_->Truncate(want));
    if (sync) ENGINE_RETURN_IF_ERROR(file_->Sync());
    change_counter_ = counter;
  }
  if (journal_) {
    // The commit point.
    ENGINE_RETURN_IF_ERROR(journal_->Delete(opts_.synchronous == Synchronous::kFull));
    journal_.reset();
  }
  in_write_ = false;
  spilled_ = false;
  if (implicit_read_) return EndRead();
  return file_->Lock(LockLevel::kShared);
}

Status Pager::Rollback() {
  if (!in_write_) return Status::InvalidArgument("cannot rollback - no transaction is active");
  stmt_.Clear();
  Status st = Status::OK();
  if (journal_) {
    if (spilled_) {
      auto played = PlaybackJournal(*env_, *file_, JournalPath(path_), page_size_, /*hot=*/false);
      if (!played.ok()) st = played.status();
    }
    // A rollback's journal may come back after a power cut: playing it
    // again restores the same pages, so its deletion needs no sync.
    Status del = journal_->Delete(/*sync_dir=*/false);
    if (st.ok()) st = del;
    journal_.reset();
  } else if (spilled_) {
    st = file_->Truncate(uint64_t{orig_page_count_} * page_size_);
  }
  for (CachedPage* f : dirty_) {
    f->dirty = false;
    f->parsed = false;
  }
  dirty_.clear();
  in_write_ = false;
  spilled_ = false;
  if (st.ok()) {
    // Only the pages the transaction touched go: every page it made
    // writable is journaled (or new), and the others still hold what the
    // file holds. Dropping the whole cache made the next transactions
    // re-read their working set, one pread per page.
    auto drop = [&](size_t pgno) {
      CachedPage* f = by_pgno_[pgno];
      if (f == nullptr || f->pins != 0) return;  // pinned: reloaded by ReloadPinned()
      by_pgno_[pgno] = nullptr;
      f->pgno = 0;
      f->parsed = false;
    };
    for (uint32_t pgno : journaled_list_) {
      if (pgno < by_pgno_.size()) drop(pgno);
    }
    for (size_t pgno = size_t{orig_page_count_} + 1; pgno < by_pgno_.size(); ++pgno) drop(pgno);
  } else {
    DropCache();
  }
  Status load = LoadHeader();
  if (st.ok()) st = load;
  if (st.ok()) st = ReloadPinned();
  Status unlock = implicit_read_ ? EndRead() : file_->Lock(LockLevel::kShared);
  return st.ok() ? unlock : st;
}

void Pager::DropCache() {
  for (auto& f : frames_) {
    if (f->pins != 0) continue;  // reloaded by ReloadPinned()
    if (f->pgno != 0 && f->pgno < by_pgno_.size()) by_pgno_[f->pgno] = nullptr;
    f->pgno = 0;
    f->dirty = false;
    f->parsed = false;
  }
}

Status Pager::ReloadPinned() {
  // A caller still holding a page across a rollback sees its restored image.
  for (auto& f : frames_) {
    if (f->pins == 0 || f->pgno == 0) continue;
    f->parsed = false;
    if (f->pgno > page_count_) {
      std::memset(f->data.get(), 0, page_size_);
      continue;
    }
    ENGINE_RETURN_IF_ERROR(
        file_->ReadAt(uint64_t{f->pgno - 1} * page_size_, f->data.get(), page_size_));
  }
  return Status::OK();
}

}  // namespace engine
