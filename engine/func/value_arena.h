// Bump allocator for the TEXT and BLOB bytes an expression produces while one
// row is evaluated (concatenation, CAST to text, printf, ...). engine::Value
// only views its bytes, so they need an owner that lives as long as the row;
// Reset() between rows keeps every block, so once the arena has grown to a
// row's working size the steady state allocates nothing. Values that must
// outlive the row (GROUP BY keys, sort buffers) are copied out by the caller.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/value.h"

namespace engine::func {

class ValueArena {
 public:
  explicit ValueArena(size_t first_block_size = 1024) : first_block_size_(first_block_size) {}
  ValueArena(const ValueArena&) = delete;
  ValueArena& operator=(const ValueArena&) = delete;
  ValueArena(ValueArena&&) = default;
  ValueArena& operator=(ValueArena&&) = default;

  // n bytes, valid until Reset(); never null, even for n == 0.
  char* Allocate(size_t n) {
    if (n == 0) {
      static char empty[1];
      return empty;
    }
    if (n <= remaining_) {
      char* p = cursor_;
      cursor_ += n;
      remaining_ -= n;
      return p;
    }
    return AllocateSlow(n);
  }

  Value CopyText(std::string_view s) {
    char* p = Allocate(s.size());
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    return Value::Text(p, s.size());
  }
  Value CopyBlob(const void* data, size_t n) {
    char* p = Allocate(n);
    if (n != 0) std::memcpy(p, data, n);
    return Value::Blob(p, n);
  }
  // A copy of v whose bytes (if any) live in this arena.
  Value Copy(const Value& v) {
    if (v.type() == ValueType::kText) return CopyText(v.as_text());
    if (v.type() == ValueType::kBlob) return CopyBlob(v.data(), v.size());
    return v;
  }

  // Forgets every allocation but keeps the blocks for the next row.
  void Reset() {
    block_index_ = 0;
    if (blocks_.empty()) {
      cursor_ = nullptr;
      remaining_ = 0;
    } else {
      cursor_ = blocks_[0].data.get();
      remaining_ = blocks_[0].size;
    }
  }

  // Bytes held in blocks (what a Reset() keeps).
  size_t capacity() const {
    size_t total = 0;
    for (const Block& b : blocks_) total += b.size;
    return total;
  }
  size_t block_count() const { return blocks_.size(); }

 private:
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size;
  };

  char* AllocateSlow(size_t n) {
    // Reuse the following blocks first: after Reset() they are the memory the
    // previous rows needed.
    while (block_index_ + 1 < blocks_.size()) {
      ++block_index_;
      Block& b = blocks_[block_index_];
      if (b.size >= n) {
        cursor_ = b.data.get() + n;
        remaining_ = b.size - n;
        return b.data.get();
      }
    }
    size_t size = blocks_.empty() ? first_block_size_ : blocks_.back().size * 2;
    if (size < n) size = n;
    if (size == 0) size = 1;
    // for_overwrite: a block is written before it is read; zeroing it
    // was a memset of every new block (3% of tpcc_lite's instructions).
    blocks_.push_back(Block{std::make_unique_for_overwrite<char[]>(size), size});
    block_index_ = blocks_.size() - 1;
    cursor_ = blocks_.back().data.get() + n;
    remaining_ = size - n;
    return blocks_.back().data.get();
  }

  size_t first_block_size_;
  std::vector<Block> blocks_;
  size_t block_index_ = 0;
  char* cursor_ = nullptr;
  size_t remaining_ = 0;
};

}  // namespace engine::func
