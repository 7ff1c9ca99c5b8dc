#include "engine/func/aggregates.h"

#include <cstring>

#include "engine/func/affinity.h"
#include "engine/func/cast.h"
#include "engine/func/text_format.h"
#include "engine/util/ascii.h"

namespace engine::func {
namespace {}  // namespace

std::optional<AggregateKind> FindAggregate(std::string_view name, int n, bool star) {
  if (EqualsNoCaseAscii(name, "count")) {
    if (star || n == 0) return AggregateKind::kCountStar;
    if (n == 1) return AggregateKind::kCount;
    return std::nullopt;
  }
  if (star) return std::nullopt;
  if (EqualsNoCaseAscii(name, "group_concat")) {
    if (n == 1 || n == 2) return AggregateKind::kGroupConcat;
    return std::nullopt;
  }
  if (n != 1) return std::nullopt;
  if (EqualsNoCaseAscii(name, "sum")) return AggregateKind::kSum;
  if (EqualsNoCaseAscii(name, "total")) return AggregateKind::kTotal;
  if (EqualsNoCaseAscii(name, "avg")) return AggregateKind::kAvg;
  if (EqualsNoCaseAscii(name, "min")) return AggregateKind::kMin;
  if (EqualsNoCaseAscii(name, "max")) return AggregateKind::kMax;
  return std::nullopt;
}

bool DistinctSet::Insert(const Value& v, Collation coll) {
  // One key per equivalence class: numbers that are equal share a key
  // whether INTEGER or REAL, so 1 and 1.0 are one value as in SQLite.
  key_.clear();
  switch (v.type()) {
    case ValueType::kNull:
      key_.push_back('n');
      break;
    case ValueType::kInteger:
    case ValueType::kReal: {
      const Value n = IntegerAffinity(v);
      if (n.type() == ValueType::kInteger) {
        const int64_t i = n.as_int();
        key_.push_back('i');
        key_.append(reinterpret_cast<const char*>(&i), sizeof(i));
      } else {
        double r = n.as_real();
        if (r == 0.0) r = 0.0;  // -0.0 and 0.0 are equal
        key_.push_back('r');
        key_.append(reinterpret_cast<const char*>(&r), sizeof(r));
      }
      break;
    }
    case ValueType::kText: {
      // The key is the text as the collation sees it: texts equal under it
      // share one.
      key_.push_back('t');
      std::string_view t = v.as_text();
      if (coll == Collation::kRtrim) {
        while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
      }
      const size_t at = key_.size();
      key_.append(t);
      if (coll == Collation::kNoCase) {
        for (size_t i = at; i < key_.size(); ++i) {
          if (key_[i] >= 'A' && key_[i] <= 'Z') key_[i] = static_cast<char>(key_[i] + 32);
        }
      }
      break;
    }
    case ValueType::kBlob:
      key_.push_back('b');
      key_.append(v.as_text());
      break;
  }
  return seen_.insert(key_).second;
}

Value Aggregate::Best() const {
  if (best_.type() == ValueType::kText) return Value::Text(best_bytes_);
  if (best_.type() == ValueType::kBlob) return Value::Blob(best_bytes_.data(), best_bytes_.size());
  return best_;
}

void Aggregate::Reset() {
  seen_.Reset();
  last_was_best_ = false;
  count_ = 0;
  real_sum_ = 0.0;
  int_sum_ = 0;
  approx_ = false;
  overflow_ = false;
  best_ = Value::Null();
  has_text_ = false;
  text_.clear();
}

void Aggregate::Step(const Value* args, int n) {
  last_was_best_ = false;
  if (kind_ == AggregateKind::kCountStar) {
    count_++;
    return;
  }
  if (n < 1 || args[0].is_null()) return;
  const Value& v = args[0];
  if (distinct_ && !seen_.Insert(v, collation_)) return;
  switch (kind_) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      count_++;
      return;
    case AggregateKind::kSum:
    case AggregateKind::kTotal:
    case AggregateKind::kAvg: {
      // sqlite3_value_numeric_type: numeric-looking text counts as a number
      // (numbers, the usual argument, skip the out-of-line conversion).
      const Value num = v.is_numeric() ? v : ApplyNumericAffinity(v, false);
      count_++;
      if (num.type() == ValueType::kInteger) {
        const int64_t i = num.as_int();
        real_sum_ += static_cast<double>(i);
        if (!approx_ && !overflow_ && __builtin_add_overflow(int_sum_, i, &int_sum_)) {
          approx_ = overflow_ = true;
        }
      } else {
        real_sum_ += num.type() == ValueType::kReal ? num.as_real() : RealValue(num);
        approx_ = true;
      }
      return;
    }
    case AggregateKind::kMin:
    case AggregateKind::kMax: {
      if (!best_.is_null()) {
        const int c = CompareCollated(Best(), v, collation_);
        const bool better = kind_ == AggregateKind::kMax ? c < 0 : c > 0;
        if (!better) return;
      }
      if (v.is_bytes()) best_bytes_.assign(v.data(), v.size());
      best_ = v;
      last_was_best_ = true;
      return;
    }
    case AggregateKind::kGroupConcat: {
      if (has_text_) {
        if (n < 2) {
          text_.push_back(',');
        } else if (!args[1].is_null()) {
          char buf[kNumberTextMax];
          const Value& sep = args[1];
          if (sep.type() == ValueType::kInteger) {
            text_.append(buf, FormatInteger(sep.as_int(), buf));
          } else if (sep.type() == ValueType::kReal) {
            text_.append(buf, FormatReal(sep.as_real(), buf));
          } else {
            text_.append(sep.as_text());
          }
        }
      }
      has_text_ = true;
      if (v.type() == ValueType::kInteger) {
        char buf[kNumberTextMax];
        text_.append(buf, FormatInteger(v.as_int(), buf));
      } else if (v.type() == ValueType::kReal) {
        char buf[kNumberTextMax];
        text_.append(buf, FormatReal(v.as_real(), buf));
      } else {
        text_.append(v.as_text());
      }
      return;
    }
  }
}

void Aggregate::Inverse(const Value* args, int n) {
  if (kind_ == AggregateKind::kCountStar) {
    count_--;
    return;
  }
  if (n < 1 || args[0].is_null()) return;
  switch (kind_) {
    case AggregateKind::kCount:
      count_--;
      return;
    case AggregateKind::kSum:
    case AggregateKind::kTotal:
    case AggregateKind::kAvg: {
      // The sum of the rows still in the frame: an integer sum stays exact
      // (unless it overflowed, which an error reports anyway); the real
      // sum is what SQLite keeps too, rounding included.
      const Value num = ApplyNumericAffinity(args[0], false);
      count_--;
      if (num.type() == ValueType::kInteger) {
        const int64_t i = num.as_int();
        real_sum_ -= static_cast<double>(i);
        // Wraps as SQLite's 64-bit subtraction does (never UB here).
        if (!approx_) {
          int_sum_ =
              static_cast<int64_t>(static_cast<uint64_t>(int_sum_) - static_cast<uint64_t>(i));
        }
      } else {
        real_sum_ -= RealValue(num);
      }
      return;
    }
    default:
      return;
  }
}

Status Aggregate::Finish(Value* out) const {
  *out = Value::Null();
  switch (kind_) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      *out = Value::Integer(count_);
      break;
    case AggregateKind::kSum:
      if (count_ == 0) break;
      if (overflow_) return Status::SqlError("integer overflow");
      *out = approx_ ? Value::Real(real_sum_) : Value::Integer(int_sum_);
      break;
    case AggregateKind::kTotal:
      *out = Value::Real(real_sum_);
      break;
    case AggregateKind::kAvg:
      if (count_ > 0) *out = Value::Real(real_sum_ / static_cast<double>(count_));
      break;
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      *out = Best();
      break;
    case AggregateKind::kGroupConcat:
      if (has_text_) *out = Value::Text(text_);
      break;
  }
  return Status::OK();
}

}  // namespace engine::func
