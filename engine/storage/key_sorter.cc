#include "engine/storage/key_sorter.h"

#include <algorithm>
#include <cstring>

#include "engine/func/collation.h"
#include "engine/util/coding.h"
#include "engine/util/varint.h"

namespace engine {

namespace {

// Bytes read from or written to the run file at a time.
constexpr size_t kBlock = 256 * 1024;

}  // namespace

// Text and blob bytes of the keys in memory, in chunks that never move (the
// Values point into them).
class KeySorter::Arena {
 public:
  uint8_t* Allocate(size_t n) {
    if (chunks_.empty() || used_ + n > size_) {
      size_ = std::max(kChunk, n);
      chunks_.push_back(std::make_unique_for_overwrite<uint8_t[]>(size_));  // no zeroing
      used_ = 0;
    }
    uint8_t* p = chunks_.back().get() + used_;
    used_ += n;
    bytes_ += n;
    return p;
  }
  size_t bytes() const { return bytes_; }
  void Clear() {
    chunks_.clear();
    used_ = size_ = bytes_ = 0;
  }

 private:
  static constexpr size_t kChunk = 1 << 20;
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t used_ = 0;
  size_t size_ = 0;   // of the last chunk
  size_t bytes_ = 0;  // handed out since the last Clear
};

// One sorted run in the file, read ahead a block at a time. Its current
// key's record is a view into buf, valid until the run advances.
struct KeySorter::Run {
  uint64_t pos = 0;  // next unread byte in the file
  uint64_t end = 0;  // end of the run in the file
  std::vector<uint8_t> buf;
  size_t at = 0;  // next unread byte in buf
  std::span<const uint8_t> record;
  RecordReader reader;
  std::vector<Value> values;
  Entry current;  // values' first column's prefix, and values
};

KeySorter::KeySorter(Env* env, KeyOrder order, size_t memory_budget, int file_format)
    : env_(env),
      order_(order),
      budget_(memory_budget),
      prefixed_(order.empty() || order[0].coll == func::Collation::kBinary),
      desc0_(!order.empty() && order[0].desc),
      arena_(std::make_unique<Arena>()),
      builder_(file_format) {}

KeySorter::~KeySorter() = default;

namespace {

// One column of two keys under `coll`. Two values of one type, the usual
// case in an index column, compare here without compare_values' type
// ranking (which the compiler keeps out of line: 16% of a text index's
// build went there).
inline int CompareColumn(const Value& a, const Value& b, func::Collation coll) {
  if (a.type() == b.type()) {
    switch (a.type()) {
      case ValueType::kInteger:
        return a.as_int() < b.as_int() ? -1 : (a.as_int() > b.as_int() ? 1 : 0);
      case ValueType::kReal:
        if (a.as_real() < b.as_real()) return -1;
        if (a.as_real() > b.as_real()) return 1;
        break;  // equal, or NaN: compare_values decides
      case ValueType::kText:
        if (coll != func::Collation::kBinary) break;
        [[fallthrough]];
      case ValueType::kBlob: {
        const size_t n = std::min(a.size(), b.size());
        const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
        if (c != 0) return c;
        return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
      }
      case ValueType::kNull:
        return 0;
    }
  }
  return func::CompareCollated(a, b, coll);
}

}  // namespace

// The first 8 bytes of a TEXT or BLOB, big-endian and zero-padded: two
// keys whose first columns differ there are ordered without touching their
// Values (most comparisons of a sort, and the memcmp calls that were a
// fifth of a text index's build).
uint64_t KeySorter::PrefixOf(const Value& v) {
  if (v.type() != ValueType::kText && v.type() != ValueType::kBlob) return 0;
  uint8_t b[8] = {};
  std::memcpy(b, v.data(), std::min<size_t>(v.size(), 8));
  return uint64_t{get_u32(b)} << 32 | get_u32(b + 4);
}

void KeySorter::SortInMemory() {
  sorted_.clear();
  if (values_.empty()) return;  // no key (width_ may still be 0)
  sorted_.reserve(values_.size() / width_);
  for (size_t i = 0; i < values_.size(); i += width_)
    sorted_.push_back(Entry{prefixed_ ? PrefixOf(values_[i]) : 0, &values_[i]});
  std::sort(sorted_.begin(), sorted_.end(),
            [this](const Entry& a, const Entry& b) { return Before(a, b); });
}

bool KeySorter::Before(const Entry& a, const Entry& b) const {
  // Equal prefixes, or a column of two types, need the whole comparison.
  const ValueType t = a.key->type();
  if (prefixed_ && a.prefix != b.prefix && t == b.key->type() &&
      (t == ValueType::kText || t == ValueType::kBlob)) {
    return (a.prefix < b.prefix) != desc0_;
  }
  return Less(a.key, b.key);
}

bool KeySorter::Less(const Value* a, const Value* b) const {
  const size_t n = order_.size();
  for (size_t i = 0; i < width_; ++i) {
    int c;
    if (i < n) {
      c = CompareColumn(a[i], b[i], order_[i].coll);
      if (order_[i].desc) c = -c;
    } else {
      c = CompareColumn(a[i], b[i], func::Collation::kBinary);
    }
    if (c != 0) return c < 0;
  }
  return false;
}

Status KeySorter::Add(std::span<const Value> key) {
  if (finished_) return Status::InvalidArgument("key sorter: Add after Finish");
  if (keys_ == 0) width_ = key.size();
  if (key.size() != width_ || width_ == 0)
    return Status::InvalidArgument("key sorter: keys of different widths");
  for (const Value& v : key) {
    if (v.type() == ValueType::kText || v.type() == ValueType::kBlob) {
      uint8_t* p = arena_->Allocate(v.size());
      if (v.size() > 0) std::memcpy(p, v.data(), v.size());
      values_.push_back(v.type() == ValueType::kText
                            ? Value::Text(reinterpret_cast<const char*>(p), v.size())
                            : Value::Blob(p, v.size()));
    } else {
      values_.push_back(v);
    }
  }
  ++keys_;
  const size_t held = values_.size() / width_;
  const size_t used =
      values_.size() * sizeof(Value) + arena_->bytes() + held * sizeof(const Value*);
  if (used >= budget_) return Spill();
  return Status::OK();
}

Status KeySorter::WriteOut(const uint8_t* p, size_t n) {
  out_.insert(out_.end(), p, p + n);
  if (out_.size() >= kBlock) return FlushOut();
  return Status::OK();
}

Status KeySorter::FlushOut() {
  if (out_.empty()) return Status::OK();
  if (!file_) {
    ENGINE_ASSIGN_OR_RETURN(file_, env_->OpenTemp());
  }
  ENGINE_RETURN_IF_ERROR(file_->WriteAt(file_end_, out_.data(), out_.size()));
  file_end_ += out_.size();
  out_.clear();
  return Status::OK();
}

// Sorts the keys in memory and writes them as one run: each record after
// its length as a varint.
Status KeySorter::Spill() {
  SortInMemory();
  const uint64_t start = file_end_ + out_.size();
  for (const Entry& e : sorted_) {
    const std::span<const uint8_t> rec = builder_.Build(e.key, static_cast<int>(width_));
    uint8_t len[kMaxVarintLen];
    ENGINE_RETURN_IF_ERROR(WriteOut(len, static_cast<size_t>(put_varint(len, rec.size()))));
    ENGINE_RETURN_IF_ERROR(WriteOut(rec.data(), rec.size()));
  }
  ENGINE_RETURN_IF_ERROR(FlushOut());
  auto run = std::make_unique<Run>();
  run->pos = start;
  run->end = file_end_;
  runs_.push_back(std::move(run));
  sorted_.clear();
  values_.clear();
  arena_->Clear();
  return Status::OK();
}

// Reads the run's next record and decodes it; false at the run's end.
Result<bool> KeySorter::Advance(Run& r) {
  // Makes at least `need` unread bytes sit in buf (fewer at the run's end).
  auto fill = [&](size_t need) -> Status {
    const size_t have = r.buf.size() - r.at;
    if (have >= need || r.pos == r.end) return Status::OK();
    r.buf.erase(r.buf.begin(), r.buf.begin() + static_cast<std::ptrdiff_t>(r.at));
    r.at = 0;
    const size_t n = static_cast<size_t>(std::min<uint64_t>(std::max(kBlock, need), r.end - r.pos));
    const size_t old = r.buf.size();
    r.buf.resize(old + n);
    size_t got = 0;
    ENGINE_RETURN_IF_ERROR(file_->ReadAt(r.pos, r.buf.data() + old, n, &got));
    if (got != n) return Status::Corruption("key sorter: a run ends early in its file");
    r.pos += n;
    return Status::OK();
  };
  ENGINE_RETURN_IF_ERROR(fill(kMaxVarintLen));
  if (r.at == r.buf.size()) return false;
  const uint8_t* p = r.buf.data() + r.at;
  uint64_t len;
  const int n = get_varint_bounded(p, r.buf.data() + r.buf.size(), &len);
  if (n == 0 || len > r.end) return Status::Corruption("key sorter: bad record length in a run");
  r.at += static_cast<size_t>(n);
  ENGINE_RETURN_IF_ERROR(fill(static_cast<size_t>(len)));
  if (r.buf.size() - r.at < len) return Status::Corruption("key sorter: a run ends mid-record");
  r.record = std::span<const uint8_t>(r.buf.data() + r.at, static_cast<size_t>(len));
  r.at += static_cast<size_t>(len);
  ENGINE_RETURN_IF_ERROR(r.reader.Parse(r.record));
  if (static_cast<size_t>(r.reader.column_count()) != width_)
    return Status::Corruption("key sorter: a run's record has the wrong width");
  r.values.resize(width_);
  for (size_t i = 0; i < width_; ++i) r.values[i] = r.reader.column(static_cast<int>(i));
  r.current = Entry{prefixed_ ? PrefixOf(r.values[0]) : 0, r.values.data()};
  return true;
}

Status KeySorter::Finish() {
  if (finished_) return Status::OK();
  finished_ = true;
  if (runs_.empty()) {
    SortInMemory();
    return Status::OK();
  }
  if (!values_.empty()) ENGINE_RETURN_IF_ERROR(Spill());
  for (auto& r : runs_) {
    ENGINE_ASSIGN_OR_RETURN(bool any, Advance(*r));
    if (any) heap_.push_back(r.get());
  }
  std::make_heap(heap_.begin(), heap_.end(),
                 [this](const Run* a, const Run* b) { return Before(b->current, a->current); });
  return Status::OK();
}

Result<bool> KeySorter::Next() {
  if (!finished_) return Status::InvalidArgument("key sorter: Next before Finish");
  if (runs_.empty()) {
    if (pos_ >= sorted_.size()) return false;
    current_ = sorted_[pos_++].key;
    record_ = builder_.Build(current_, static_cast<int>(width_));
    return true;
  }
  auto greater = [this](const Run* a, const Run* b) { return Before(b->current, a->current); };
  if (started_ && !heap_.empty()) {
    // The run that gave the previous key moves on first.
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    Run* r = heap_.back();
    heap_.pop_back();
    ENGINE_ASSIGN_OR_RETURN(bool more, Advance(*r));
    if (more) {
      heap_.push_back(r);
      std::push_heap(heap_.begin(), heap_.end(), greater);
    }
  }
  started_ = true;
  if (heap_.empty()) return false;
  const Run* top = heap_.front();
  current_ = top->values.data();
  record_ = top->record;
  return true;
}

}  // namespace engine
