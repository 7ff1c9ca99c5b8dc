// Sorts the keys of an index build (CREATE INDEX, REINDEX) as SQLite's
// VdbeSorter does: keys gather in memory up to a budget; each full batch is
// sorted and written as one run to a temporary file (Env::OpenTemp, one
// file for every run, as SQLite's PMAs share one); reading them back merges
// the runs. Keys that fit in the budget never touch a file.
//
// Order is the index's: each column under its KeyColumn (direction and
// collation), columns past the KeyOrder ascending and BINARY (the rowid
// that ends every index key). Keys are unique by their rowid, so the order
// is total and the output the same whatever the budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/status.h"
#include "engine/storage/env.h"
#include "engine/storage/key_column.h"
#include "engine/storage/record.h"
#include "engine/value.h"

namespace engine {

class KeySorter {
 public:
  // `order` must outlive the sorter. `memory_budget`: bytes of keys held
  // before a run is written (at least one key is always held).
  KeySorter(Env* env, KeyOrder order, size_t memory_budget, int file_format);
  ~KeySorter();
  KeySorter(const KeySorter&) = delete;
  KeySorter& operator=(const KeySorter&) = delete;

  // Adds one key; its Values are copied (text and blob bytes too). Every key
  // has the width of the first.
  Status Add(std::span<const Value> key);
  // Ends the input. Next then yields the keys in order.
  Status Finish();
  // Moves to the next key in order; false past the last.
  Result<bool> Next();
  // The current key, valid until the next call to Next.
  std::span<const Value> key() const { return {current_, width_}; }
  std::span<const uint8_t> record() const { return record_; }

  size_t keys() const { return keys_; }
  // Runs written to the temporary file (0: sorted in memory).
  size_t runs() const { return runs_.size(); }

 private:
  struct Run;
  class Arena;
  struct Entry {
    uint64_t prefix;  // PrefixOf(first column), when prefixed_
    const Value* key;
  };
  static uint64_t PrefixOf(const Value& v);
  bool Less(const Value* a, const Value* b) const;
  // Less, decided by the prefixes where they differ.
  bool Before(const Entry& a, const Entry& b) const;
  void SortInMemory();
  Status Spill();
  Status WriteOut(const uint8_t* p, size_t n);
  Status FlushOut();
  Result<bool> Advance(Run& r);

  Env* env_;
  KeyOrder order_;
  size_t budget_;
  bool prefixed_;  // the first column orders by BINARY: PrefixOf orders it
  bool desc0_;     // the first column descends
  size_t width_ = 0;
  size_t keys_ = 0;

  // Keys in memory: width_ Values each, their bytes in the arena.
  std::vector<Value> values_;
  std::unique_ptr<Arena> arena_;
  std::vector<Entry> sorted_;
  size_t pos_ = 0;  // next of sorted_ to yield (in-memory output)

  // Spilled runs in one temporary file; out_ buffers the run being written.
  std::unique_ptr<File> file_;
  uint64_t file_end_ = 0;
  std::vector<uint8_t> out_;
  std::vector<std::unique_ptr<Run>> runs_;
  std::vector<Run*> heap_;  // merge order: the run with the least key on top

  bool finished_ = false;
  bool started_ = false;
  const Value* current_ = nullptr;
  std::span<const uint8_t> record_;
  RecordBuilder builder_;
};

}  // namespace engine
