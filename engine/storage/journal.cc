#include "engine/storage/journal.h"

#include <chrono>
#include <cstring>
#include <random>

#include "engine/util/coding.h"

namespace engine {
namespace {

constexpr uint32_t kAllRecords = 0xffffffffu;

uint32_t NewNonce() {
  static std::mt19937 gen(
      static_cast<uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  return gen();
}

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::string JournalPath(const std::string& db_path) { return db_path + "-journal"; }

uint32_t JournalChecksum(uint32_t nonce, const uint8_t* page, uint32_t page_size) {
  uint32_t sum = nonce;
  for (int64_t i = static_cast<int64_t>(page_size) - 200; i > 0; i -= 200) sum += page[i];
  return sum;
}

Result<std::unique_ptr<JournalWriter>> JournalWriter::Create(Env& env, const std::string& path,
                                                             uint32_t page_size,
                                                             uint32_t orig_page_count,
                                                             JournalBuffer* buffer) {
  ENGINE_ASSIGN_OR_RETURN(auto file, env.Open(path, File::Mode::kCreate));
  ENGINE_RETURN_IF_ERROR(file->Truncate(0));
  std::unique_ptr<JournalWriter> w(
      new JournalWriter(env, std::move(file), page_size, orig_page_count, NewNonce()));
  // Room for 64 records: one write per 64 pages at most.
  if (buffer != nullptr) w->buf_ = buffer;
  const size_t need = 64 * (8 + size_t{page_size});
  if (w->buf_->capacity < need) {
    w->buf_->bytes.reset(new uint8_t[need]);
    w->buf_->capacity = need;
  }
  ENGINE_RETURN_IF_ERROR(w->WriteHeader(0));
  return w;
}

Status JournalWriter::WriteHeader(uint64_t at) {
  uint8_t hdr[28];
  std::memcpy(hdr, kJournalMagic, 8);
  put_u32(hdr + 8, 0);  // record count: sealed later
  put_u32(hdr + 12, nonce_);
  put_u32(hdr + 16, orig_pages_);
  put_u32(hdr + 20, kJournalSectorSize);
  put_u32(hdr + 24, page_size_);
  std::vector<uint8_t> sector(kJournalSectorSize, 0);
  std::memcpy(sector.data(), hdr, sizeof hdr);
  ENGINE_RETURN_IF_ERROR(file_->WriteAt(at, sector.data(), sector.size()));
  segment_start_ = at;
  end_ = at + kJournalSectorSize;
  unsealed_ = 0;
  return Status::OK();
}

Status JournalWriter::Append(uint32_t pgno, const uint8_t* page) {
  if (unsealed_ == 0 && end_ > segment_start_ + kJournalSectorSize) {
    // The open segment was sealed: start a new one after it.
    ENGINE_RETURN_IF_ERROR(WriteHeader(AlignUp(end_, kJournalSectorSize)));
  }
  const size_t len = 8 + size_t{page_size_};
  // A transaction that changes many pages writes as it goes.
  if (pending_ + len > buf_->capacity) ENGINE_RETURN_IF_ERROR(Flush());
  if (pending_ == 0) pending_at_ = end_;
  uint8_t* r = buf_->bytes.get() + pending_;
  put_u32(r, pgno);
  std::memcpy(r + 4, page, page_size_);
  put_u32(r + 4 + page_size_, JournalChecksum(nonce_, page, page_size_));
  pending_ += len;
  end_ += len;
  ++unsealed_;
  return Status::OK();
}

Status JournalWriter::Flush() {
  if (pending_ == 0) return Status::OK();
  ENGINE_RETURN_IF_ERROR(file_->WriteAt(pending_at_, buf_->bytes.get(), pending_));
  pending_ = 0;
  return Status::OK();
}

Status JournalWriter::Seal(bool sync, bool full) {
  if (unsealed_ == 0) return Status::OK();
  ENGINE_RETURN_IF_ERROR(Flush());
  if (sync && full) ENGINE_RETURN_IF_ERROR(file_->Sync());
  uint8_t n[4];
  put_u32(n, unsealed_);
  ENGINE_RETURN_IF_ERROR(file_->WriteAt(segment_start_ + 8, n, 4));
  if (sync) {
    ENGINE_RETURN_IF_ERROR(file_->Sync());
    if (!dir_synced_) {
      // As SQLite's unix VFS does on a journal's first fsync: a name that a
      // power cut can forget would leave the database changes that follow
      // with nothing to undo them.
      ENGINE_RETURN_IF_ERROR(env_.SyncDir(file_->path()));
      dir_synced_ = true;
    }
  }
  unsealed_ = 0;
  return Status::OK();
}

Status JournalWriter::Delete(bool sync_dir) {
  file_.reset();
  ENGINE_RETURN_IF_ERROR(env_.Delete(path_));
  return sync_dir ? env_.SyncDir(path_) : Status::OK();
}

Result<uint32_t> PlaybackJournal(Env& env, File& db, const std::string& journal_path,
                                 uint32_t page_size, bool hot) {
  ENGINE_ASSIGN_OR_RETURN(auto jf, env.Open(journal_path, File::Mode::kReadOnly));
  ENGINE_ASSIGN_OR_RETURN(uint64_t jsize, jf->Size());
  uint64_t off = 0;
  uint32_t orig_pages = 0;
  bool first = true;
  std::vector<uint8_t> rec;
  while (off + 28 <= jsize) {
    uint8_t hdr[28];
    ENGINE_RETURN_IF_ERROR(jf->ReadAt(off, hdr, sizeof hdr));
    if (std::memcmp(hdr, kJournalMagic, 8) != 0) break;
    uint32_t nrec = get_u32(hdr + 8);
    uint32_t nonce = get_u32(hdr + 12);
    uint32_t seg_orig = get_u32(hdr + 16);
    uint32_t sector = get_u32(hdr + 20);
    uint32_t jpage = get_u32(hdr + 24);
    if (sector < 32 || sector > 65536 || (sector & (sector - 1)) != 0) break;
    if (jpage != page_size) {
      return Status::Corruption("journal page size " + std::to_string(jpage) +
                                " differs from the database's " + std::to_string(page_size));
    }
    uint64_t rec_size = 8 + uint64_t{page_size};
    uint64_t rec_start = off + sector;
    if (nrec == kAllRecords || (nrec == 0 && !hot)) {
      nrec = static_cast<uint32_t>(jsize > rec_start ? (jsize - rec_start) / rec_size : 0);
    }
    if (first) {
      if (nrec == 0) return 0u;  // never sealed: the database was not touched
      orig_pages = seg_orig;
      first = false;
    }
    rec.resize(rec_size);
    uint64_t at = rec_start;
    bool bad = false;
    for (uint32_t i = 0; i < nrec; ++i, at += rec_size) {
      if (at + rec_size > jsize) {
        bad = true;
        break;
      }
      ENGINE_RETURN_IF_ERROR(jf->ReadAt(at, rec.data(), rec_size));
      uint32_t pgno = get_u32(rec.data());
      const uint8_t* image = rec.data() + 4;
      if (get_u32(image + page_size) != JournalChecksum(nonce, image, page_size)) {
        bad = true;
        break;
      }
      if (pgno == 0 || pgno > orig_pages) continue;
      ENGINE_RETURN_IF_ERROR(db.WriteAt(uint64_t{pgno - 1} * page_size, image, page_size));
    }
    if (bad) break;
    off = AlignUp(at, sector);
  }
  if (first) return 0u;
  ENGINE_RETURN_IF_ERROR(db.Truncate(uint64_t{orig_pages} * page_size));
  ENGINE_RETURN_IF_ERROR(db.Sync());
  return orig_pages;
}

}  // namespace engine
