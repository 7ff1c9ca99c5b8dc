// Materialised rows (sort buffers, DISTINCT and compound sets, FROM
// subqueries, IN lists): fixed-width rows of Values whose TEXT and BLOB bytes
// are copied into the store's own arena, so they outlive the cursors and the
// per-row scratch they came from. Clear() keeps the memory for the next run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/func/collation.h"
#include "engine/func/value_arena.h"
#include "engine/value.h"

namespace engine::exec {

class RowStore {
 public:
  void Reset(int width) {
    width_ = width;
    count_ = 0;  // rows of width 0 (a window stage that reads no column) are counted
    values_.clear();
    arena_.Reset();
  }
  int width() const { return width_; }
  size_t size() const {
    return width_ == 0 ? count_ : values_.size() / static_cast<size_t>(width_);
  }
  void Add(const Value* row) {
    for (int i = 0; i < width_; ++i) values_.push_back(arena_.Copy(row[i]));
    if (width_ == 0) ++count_;
  }
  void RemoveLast() { values_.resize(values_.size() - static_cast<size_t>(width_)); }
  const Value* row(size_t i) const { return values_.data() + i * static_cast<size_t>(width_); }
  Value* mutable_row(size_t i) { return values_.data() + i * static_cast<size_t>(width_); }

 private:
  int width_ = 0;
  size_t count_ = 0;
  std::vector<Value> values_;
  func::ValueArena arena_{4096};
};

// Compares rows over their first n columns, column i under colls[i] (all
// BINARY when colls is null).
inline int CompareRows(const Value* a, const Value* b, int n,
                       const func::Collation* colls = nullptr) {
  for (int i = 0; i < n; ++i) {
    const int c =
        colls == nullptr ? compare_values(a[i], b[i]) : func::CompareCollated(a[i], b[i], colls[i]);
    if (c != 0) return c;
  }
  return 0;
}

// A value that owns its bytes and can be overwritten without reallocating
// once its buffer is large enough (aggregate states, captured group columns).
class OwnedValue {
 public:
  void Set(const Value& v) {
    type_ = v.type();
    if (v.is_bytes()) {
      buf_.assign(v.data(), v.size());
    } else {
      num_ = v;
    }
  }
  Value get() const {
    switch (type_) {
      case ValueType::kText:
        return Value::Text(buf_.data(), buf_.size());
      case ValueType::kBlob:
        return Value::Blob(buf_.data(), buf_.size());
      default:
        return num_;
    }
  }
  bool is_null() const { return type_ == ValueType::kNull; }

 private:
  ValueType type_ = ValueType::kNull;
  Value num_;
  std::string buf_;
};

}  // namespace engine::exec
