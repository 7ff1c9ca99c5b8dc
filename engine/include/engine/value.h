// The engine's hot value type. TEXT and BLOB values are views (pointer and
// length) into a pinned page, a cursor's overflow buffer or a caller's buffer:
// decoding a column never copies or allocates. The owner of the bytes must
// outlive the Value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace engine {

enum class ValueType : uint8_t { kNull = 0, kInteger = 1, kReal = 2, kText = 3, kBlob = 4 };

class Value {
 public:
  constexpr Value() : i_(0), len_(0), type_(ValueType::kNull) {}

  static constexpr Value Null() { return Value(); }
  static constexpr Value Integer(int64_t v) {
    Value x;
    x.type_ = ValueType::kInteger;
    x.i_ = v;
    return x;
  }
  static Value Real(double v) {
    Value x;
    x.type_ = ValueType::kReal;
    x.r_ = v;
    return x;
  }
  // Text and blob lengths are bounded by SQLite's own limit (< 2^31).
  static Value Text(const char* p, size_t n) { return View(ValueType::kText, p, n); }
  static Value Text(std::string_view s) { return Text(s.data(), s.size()); }
  static Value Blob(const void* p, size_t n) {
    return View(ValueType::kBlob, static_cast<const char*>(p), n);
  }

  ValueType type() const { return type_; }
  bool is_null() const { return type_ == ValueType::kNull; }
  bool is_numeric() const { return type_ == ValueType::kInteger || type_ == ValueType::kReal; }
  int64_t as_int() const { return i_; }
  double as_real() const { return r_; }
  // TEXT and BLOB contents; empty for the other types.
  const char* data() const { return is_bytes() ? p_ : nullptr; }
  uint32_t size() const { return is_bytes() ? len_ : 0; }
  std::string_view as_text() const { return {data(), size()}; }
  bool is_bytes() const { return type_ == ValueType::kText || type_ == ValueType::kBlob; }

 private:
  static Value View(ValueType t, const char* p, size_t n) {
    Value x;
    x.type_ = t;
    x.p_ = p;
    x.len_ = static_cast<uint32_t>(n);
    return x;
  }

  union {
    int64_t i_;
    double r_;
    const char* p_;
  };
  uint32_t len_;
  ValueType type_;
};

// perfci's layout contract bounds this type; rows of Values are copied in the
// executor's inner loops.
static_assert(sizeof(Value) <= 24, "engine::Value must stay at most 24 bytes");

// SQLite's ordering of an integer against a real, exact for every int64
// (a double cannot represent every int64, so a plain cast would be wrong).
inline int compare_int_real(int64_t i, double r) {
  if (r != r) return 1;  // NaN sorts below every number
  if (r < -9223372036854775808.0) return 1;
  if (r >= 9223372036854775808.0) return -1;
  const auto y = static_cast<int64_t>(r);
  if (i < y) return -1;
  if (i > y) return 1;
  const auto s = static_cast<double>(i);
  if (s < r) return -1;
  if (s > r) return 1;
  return 0;
}

// Total order of SQLite's comparison with BINARY collation: NULL < numbers <
// TEXT < BLOB; numbers compare by value across INTEGER and REAL; TEXT and BLOB
// by memcmp, then by length. Returns <0, 0 or >0.
inline int compare_values(const Value& a, const Value& b) {
  const ValueType ta = a.type();
  const ValueType tb = b.type();
  if (ta == ValueType::kInteger && tb == ValueType::kInteger) {
    return a.as_int() < b.as_int() ? -1 : (a.as_int() > b.as_int() ? 1 : 0);
  }
  auto rank = [](ValueType t) {
    switch (t) {
      case ValueType::kNull:
        return 0;
      case ValueType::kInteger:
      case ValueType::kReal:
        return 1;
      case ValueType::kText:
        return 2;
      case ValueType::kBlob:
        return 3;
    }
    return 0;
  };
  const int ra = rank(ta);
  const int rb = rank(tb);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      if (ta == ValueType::kReal && tb == ValueType::kReal) {
        const double x = a.as_real(), y = b.as_real();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      if (ta == ValueType::kInteger) return compare_int_real(a.as_int(), b.as_real());
      return -compare_int_real(b.as_int(), a.as_real());
    default: {
      const uint32_t n = a.size() < b.size() ? a.size() : b.size();
      const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
      if (c != 0) return c < 0 ? -1 : 1;
      return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
    }
  }
}

}  // namespace engine
