// SQLite's statement journal (its "sub-journal"): the image every page had
// when the current statement began, saved before the statement first changes
// the page. A statement that fails midway inside an explicit transaction is
// undone from it without undoing the statements before it; the rollback
// journal cannot do that, it holds images from the start of the transaction.
//
// Images live in memory up to a bound, then in an unlinked temporary file,
// as SQLite spills its sub-journal: a statement that rewrites a large table
// inside a transaction must not need that table's size in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/status.h"
#include "engine/storage/env.h"
#include "engine/storage/file.h"

namespace engine {

class StatementJournal {
 public:
  // Bytes of page images kept in memory before the rest go to a file.
  static constexpr size_t kDefaultMemoryLimit = size_t{1} << 20;

  // The spill file, when one is needed, comes from `env`.
  explicit StatementJournal(Env* env = Env::Default(), size_t memory_limit = kDefaultMemoryLimit)
      : env_(env), memory_limit_(memory_limit) {}
  StatementJournal(const StatementJournal&) = delete;
  StatementJournal& operator=(const StatementJournal&) = delete;

  // Starts a statement over a database of `page_count` pages; forgets the
  // images of the previous one.
  void Begin(uint32_t page_size, uint32_t page_count);
  // Ends the statement: nothing will be restored, the images are dropped.
  void Clear();
  bool active() const { return active_; }
  // Pages past this did not exist when the statement began: nothing to save.
  uint32_t page_count() const { return page_count_; }

  // True when `pgno` existed at the start and has not been saved yet.
  bool NeedsSave(uint32_t pgno) const {
    return pgno <= page_count_ && !(pgno < saved_.size() && saved_[pgno]);
  }
  Status Save(uint32_t pgno, const uint8_t* image);

  size_t size() const { return pgnos_.size(); }
  uint32_t pgno(size_t i) const { return pgnos_[i]; }
  // The saved image of the i-th saved page, into `image` (page_size bytes).
  Status Read(size_t i, uint8_t* image);

 private:
  Status OpenSpillFile();

  Env* env_;
  size_t memory_limit_;
  bool active_ = false;
  uint32_t page_size_ = 0;
  uint32_t page_count_ = 0;
  std::vector<bool> saved_;      // by page number
  std::vector<uint32_t> pgnos_;  // in the order saved
  std::vector<uint8_t> memory_;  // the first images, back to back
  size_t in_memory_ = 0;         // how many of pgnos_ are in memory_
  std::unique_ptr<File> spill_;  // the others, back to back
};

}  // namespace engine
