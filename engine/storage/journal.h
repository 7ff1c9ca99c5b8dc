// SQLite's rollback journal (file format section 3): `<db>-journal` holds the
// original image of every page a transaction changes, so that a transaction
// interrupted at any point can be undone — by the engine or by sqlite3.
//
// Layout: one or more segments, each a sector-padded header (magic, record
// count, checksum nonce, original page count, sector size, page size) then
// records of (page number, page image, checksum). A segment's record count
// is written only after its records are synced; the database file is written
// only after that, so a record count of 0 means "the database is untouched".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/storage/env.h"
#include "engine/storage/file.h"

namespace engine {

inline constexpr uint8_t kJournalMagic[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
inline constexpr uint32_t kJournalSectorSize = 512;

std::string JournalPath(const std::string& db_path);

// The journal page checksum of pager.c: the nonce plus every 200th byte,
// walking down from page_size - 200.
uint32_t JournalChecksum(uint32_t nonce, const uint8_t* page, uint32_t page_size);

// Memory a JournalWriter gathers records in before writing them. A Pager
// keeps one for all its transactions, so that each does not allocate (and
// fault in) a fresh one.
struct JournalBuffer {
  std::unique_ptr<uint8_t[]> bytes;
  size_t capacity = 0;
};

class JournalWriter {
 public:
  // Creates (truncating) the journal and writes the first segment header.
  // `buffer` (optional) is lent for the writer's lifetime; so is `env`.
  static Result<std::unique_ptr<JournalWriter>> Create(Env& env, const std::string& path,
                                                       uint32_t page_size, uint32_t orig_page_count,
                                                       JournalBuffer* buffer = nullptr);
  // Appends the original image of page `pgno` to the open segment. Records
  // are gathered in memory and written together (by Seal, or once enough
  // have piled up): the journal must be on disk only before the database
  // file changes, and one write of many pages costs far fewer system calls
  // than a write per page.
  Status Append(uint32_t pgno, const uint8_t* page);
  // Makes every record so far durable and counted: fsync, record count into
  // the segment header, fsync again (twice only when `full`). Records
  // appended later go to a new segment. The first synced seal also syncs
  // the directory, so that the journal's name is as durable as its bytes
  // before the database file changes.
  Status Seal(bool sync, bool full);
  bool has_unsealed_records() const { return unsealed_ > 0; }
  // Commit point of a DELETE-mode transaction. With `sync_dir` the
  // deletion is made durable too (SQLite's synchronous=EXTRA): otherwise a
  // power cut may bring the journal back, and it would undo the commit.
  // May be called again after it failed.
  Status Delete(bool sync_dir);

 private:
  JournalWriter(Env& env, std::unique_ptr<File> f, uint32_t page_size, uint32_t orig,
                uint32_t nonce)
      : env_(env),
        path_(f->path()),
        file_(std::move(f)),
        page_size_(page_size),
        orig_pages_(orig),
        nonce_(nonce) {}
  Status WriteHeader(uint64_t at);
  // Writes the gathered records out.
  Status Flush();

  Env& env_;
  std::string path_;
  std::unique_ptr<File> file_;  // null once deleted
  bool dir_synced_ = false;     // the journal's name is durable
  uint32_t page_size_;
  uint32_t orig_pages_;
  uint32_t nonce_;
  uint64_t segment_start_ = 0;  // offset of the open segment's header
  uint64_t end_ = 0;            // end of the last record
  uint32_t unsealed_ = 0;       // records in the open segment
  JournalBuffer own_;           // when no buffer was lent
  JournalBuffer* buf_ = &own_;
  size_t pending_ = 0;  // bytes of buf_ not yet written, from offset pending_at_
  uint64_t pending_at_ = 0;
};

// Plays a journal back into `db`: every valid record is written over its
// page, then the file is truncated to the original page count and synced.
// `hot` (recovery after a crash) trusts only sealed record counts; a live
// rollback (`hot` false) also plays the unsealed tail of the last segment.
// Stops at the first record whose checksum fails, as SQLite does. Returns
// the original page count, or 0 when the journal held nothing to undo.
Result<uint32_t> PlaybackJournal(Env& env, File& db, const std::string& journal_path,
                                 uint32_t page_size, bool hot);

}  // namespace engine
