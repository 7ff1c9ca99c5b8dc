#include "engine/storage/statement_journal.h"

#include <cstring>

namespace engine {

void StatementJournal::Begin(uint32_t page_size, uint32_t page_count) {
  Clear();
  active_ = true;
  page_size_ = page_size;
  page_count_ = page_count;
  if (saved_.size() < size_t{page_count} + 1) saved_.resize(size_t{page_count} + 1, false);
}

void StatementJournal::Clear() {
  // Only the bits this statement set: a statement that touches a few pages
  // of a large database must not pay for the whole bitmap.
  for (uint32_t p : pgnos_) saved_[p] = false;
  pgnos_.clear();
  memory_.clear();
  in_memory_ = 0;
  active_ = false;
  // The spill file is kept: a transaction that needed it once likely will again.
}

Status StatementJournal::OpenSpillFile() {
  ENGINE_ASSIGN_OR_RETURN(spill_, env_->OpenTemp());
  return Status::OK();
}

Status StatementJournal::Save(uint32_t pgno, const uint8_t* image) {
  const size_t i = pgnos_.size();
  if (i == in_memory_ && memory_.size() + page_size_ <= memory_limit_) {
    memory_.insert(memory_.end(), image, image + page_size_);
    ++in_memory_;
  } else {
    if (!spill_) ENGINE_RETURN_IF_ERROR(OpenSpillFile());
    ENGINE_RETURN_IF_ERROR(
        spill_->WriteAt(uint64_t{i - in_memory_} * page_size_, image, page_size_));
  }
  pgnos_.push_back(pgno);
  if (saved_.size() <= pgno) saved_.resize(size_t{pgno} + 1, false);
  saved_[pgno] = true;
  return Status::OK();
}

Status StatementJournal::Read(size_t i, uint8_t* image) {
  if (i < in_memory_) {
    std::memcpy(image, memory_.data() + i * page_size_, page_size_);
    return Status::OK();
  }
  return spill_->ReadAt(uint64_t{i - in_memory_} * page_size_, image, page_size_);
}

}  // namespace engine
