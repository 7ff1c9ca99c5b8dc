// SQLite's record format: a header (its own size as a varint, then one serial
// type varint per column) followed by the column bodies. RecordBuilder encodes
// a row of Values; RecordReader parses a header once and decodes columns in
// place, as views into the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "engine/status.h"
#include "engine/storage/key_column.h"
#include "engine/util/coding.h"
#include "engine/util/varint.h"
#include "engine/value.h"

namespace engine {

// Body length of a serial type; 10 and 11 are reserved (the caller rejects
// them before asking).
constexpr uint64_t serial_type_len(uint64_t serial_type) {
  constexpr uint8_t kFixed[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0};
  if (serial_type < 12) return kFixed[serial_type];
  return (serial_type - 12) / 2;
}

// Serial type of v as SQLite writes it: the smallest integer width that holds
// the value, and the constants 0 and 1 as types 8 and 9 from file format 4 on.
inline uint64_t serial_type_for(const Value& v, int file_format) {
  switch (v.type()) {
    case ValueType::kNull:
      return 0;
    case ValueType::kInteger: {
      const int64_t i = v.as_int();
      if ((i == 0 || i == 1) && file_format >= 4) return 8 + static_cast<uint64_t>(i);
      const uint64_t u = i < 0 ? ~static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
      if (u <= 127) return 1;
      if (u <= 32767) return 2;
      if (u <= 8388607) return 3;
      if (u <= 2147483647) return 4;
      if (u <= 140737488355327ll) return 5;
      return 6;
    }
    case ValueType::kReal:
      return 7;
    case ValueType::kText:
      return 13 + 2 * uint64_t{v.size()};
    case ValueType::kBlob:
      return 12 + 2 * uint64_t{v.size()};
  }
  return 0;
}

namespace record_internal {
// Sign-extends the big-endian integer of n bytes at p.
ENGINE_ALWAYS_INLINE int64_t load_be_int(const uint8_t* p, int n) {
  uint64_t x = (p[0] & 0x80) ? ~uint64_t{0} : 0;
  for (int i = 0; i < n; ++i) x = (x << 8) | p[i];
  return static_cast<int64_t>(x);
}
}  // namespace record_internal

// Decodes one column body. The caller has checked that serial_type_len(t)
// bytes are readable at p and that t is not reserved (10, 11).
ENGINE_ALWAYS_INLINE Value decode_serial_value(uint64_t serial_type, const uint8_t* p) {
  switch (serial_type) {
    case 0:
      return Value::Null();
    case 1:
      return Value::Integer(static_cast<int8_t>(p[0]));
    case 2:
      return Value::Integer(record_internal::load_be_int(p, 2));
    case 3:
      return Value::Integer(record_internal::load_be_int(p, 3));
    case 4:
      return Value::Integer(record_internal::load_be_int(p, 4));
    case 5:
      return Value::Integer(record_internal::load_be_int(p, 6));
    case 6:
      return Value::Integer(record_internal::load_be_int(p, 8));
    case 7: {
      const auto bits = static_cast<uint64_t>(record_internal::load_be_int(p, 8));
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return Value::Real(d);
    }
    case 8:
      return Value::Integer(0);
    case 9:
      return Value::Integer(1);
    case 10:
    case 11:
      return Value::Null();
    default:
      if (serial_type & 1)
        return Value::Text(reinterpret_cast<const char*>(p), (serial_type - 13) / 2);
      return Value::Blob(p, (serial_type - 12) / 2);
  }
}

// Encodes rows. The buffer is reused, so after warm-up a row costs no
// allocation; the returned span is valid until the next Build.
class RecordBuilder {
 public:
  explicit RecordBuilder(int file_format = 4) : file_format_(file_format) {}
  std::span<const uint8_t> Build(const Value* values, int n);
  std::span<const uint8_t> Build(std::span<const Value> values) {
    return Build(values.data(), static_cast<int>(values.size()));
  }

 private:
  int file_format_;
  std::vector<uint8_t> buf_;
  std::vector<uint64_t> types_;  // the serial type of each value of the row being built
};

// Parses a record's header once; column(i) then decodes in O(1) without
// copying. The payload must stay alive and unchanged while the reader is used.
class RecordReader {
 public:
  // The largest payload Parse accepts (SQLite's SQLITE_MAX_LENGTH is 1e9).
  static constexpr uint64_t kMaxPayload = uint64_t{1} << 31;
  Status Parse(const uint8_t* data, size_t size);
  Status Parse(std::span<const uint8_t> rec) { return Parse(rec.data(), rec.size()); }

  int column_count() const { return static_cast<int>(ncols_); }
  // The values of the columns a record may lack, by column
  // (catalog::TableInfo::absent); must outlive the reader's use. Empty:
  // every missing column is NULL.
  void set_absent(std::span<const Value> values) { absent_ = values; }
  // Columns past the end read as set_absent says (a row written before
  // ALTER TABLE ADD COLUMN reads the column's DEFAULT), else NULL.
  Value column(int i) const {
    if (static_cast<size_t>(i) >= ncols_) [[unlikely]]
      return static_cast<size_t>(i) < absent_.size() ? absent_[static_cast<size_t>(i)]
                                                     : Value::Null();
    const Col& c = cols_[static_cast<size_t>(i)];
    return decode_serial_value(c.serial_type, data_ + c.offset);
  }
  uint64_t serial_type(int i) const { return cols_[static_cast<size_t>(i)].serial_type; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  struct Col {
    uint64_t serial_type;
    uint32_t offset;
  };
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  // A buffer that only grows: its first ncols_ entries describe the record.
  std::vector<Col> cols_;
  size_t ncols_ = 0;
  std::span<const Value> absent_;
};

namespace record_internal {
// compare_record's loop for the B-tree seeks, inline and without a Status:
// false when the record is malformed (the caller then reports it through
// compare_record). Integer columns against integer keys, the common case of
// every rowid and most index keys, compare without building a Value.
// kOrdered false: no KeyColumns (every column ascending and BINARY, the
// common case), which then costs no test per column.
template <bool kOrdered>
ENGINE_ALWAYS_INLINE bool compare_record_as(const uint8_t* rec, size_t size, const Value* key,
                                            int nkey, const KeyColumn* order, size_t norder,
                                            int* result) {
  const uint8_t* p;
  const uint8_t* hend;
  if (size > 0 && rec[0] < 0x80) {
    if (rec[0] < 1 || rec[0] > size) return false;
    p = rec + 1;
    hend = rec + rec[0];
  } else {
    uint64_t hdr;
    const int n = get_varint_bounded(rec, rec + size, &hdr);
    if (n == 0 || hdr < static_cast<uint64_t>(n) || hdr > size) return false;
    p = rec + n;
    hend = rec + hdr;
  }
  const uint8_t* body = hend;
  const uint8_t* const end = rec + size;
  for (int i = 0; i < nkey && p < hend; ++i) {
    const Value& kv = key[i];
    uint64_t t = *p;
    int c;
    if (t < 10 && t != 0 && t != 7 && kv.type() == ValueType::kInteger) {
      ++p;
      // Serial types 1-6 are big-endian integers of 1, 2, 3, 4, 6, 8 bytes;
      // 8 and 9 the constants 0 and 1.
      int64_t v;
      switch (t) {
        case 1:
          if (end - body < 1) return false;
          v = static_cast<int8_t>(body[0]);
          body += 1;
          break;
        case 2:
          if (end - body < 2) return false;
          v = static_cast<int16_t>(get_u16(body));
          body += 2;
          break;
        case 3:
          if (end - body < 3) return false;
          v = static_cast<int32_t>(uint32_t{get_u16(body)} << 16 | uint32_t{body[2]} << 8) >> 8;
          body += 3;
          break;
        case 4:
          if (end - body < 4) return false;
          v = static_cast<int32_t>(get_u32(body));
          body += 4;
          break;
        case 5:
          if (end - body < 6) return false;
          v = load_be_int(body, 6);
          body += 6;
          break;
        case 6:
          if (end - body < 8) return false;
          v = load_be_int(body, 8);
          body += 8;
          break;
        default:
          v = static_cast<int64_t>(t - 8);
          break;
      }
      c = v < kv.as_int() ? -1 : (v > kv.as_int() ? 1 : 0);
    } else {
      if (t < 0x80) {
        ++p;
      } else {
        const int k = get_varint_bounded(p, hend, &t);
        if (k == 0) return false;
        p += k;
      }
      if (t == 10 || t == 11) return false;
      const uint64_t len = serial_type_len(t);
      if (len > static_cast<uint64_t>(end - body)) return false;
      const Value v = decode_serial_value(t, body);
      if constexpr (kOrdered) {
        c = static_cast<size_t>(i) < norder ? func::CompareCollated(v, kv, order[i].coll)
                                            : compare_values(v, kv);
      } else {
        c = compare_values(v, kv);
      }
      body += len;
    }
    if (c != 0) {
      if constexpr (kOrdered) {
        if (static_cast<size_t>(i) < norder && order[i].desc) c = -c;
      }
      *result = c;
      return true;
    }
  }
  *result = 0;
  return true;
}

ENGINE_ALWAYS_INLINE bool compare_record_local(const uint8_t* rec, size_t size, const Value* key,
                                               int nkey, const KeyColumn* order, size_t norder,
                                               int* result) {
  return norder == 0 ? compare_record_as<false>(rec, size, key, nkey, order, norder, result)
                     : compare_record_as<true>(rec, size, key, nkey, order, norder, result);
}
}  // namespace record_internal

// Compares an encoded index key (rec) with an unpacked key of nkey Values,
// column by column over the shorter of the two, as SQLite's index seeks do;
// under `order` (each column's direction and collation). *result is <0, 0
// or >0 for rec less than, equal to (on the common prefix) or greater than
// the key.
Status compare_record(const uint8_t* rec, size_t size, const Value* key, int nkey, KeyOrder order,
                      int* result);

}  // namespace engine
