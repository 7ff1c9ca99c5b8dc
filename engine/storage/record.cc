#include "engine/storage/record.h"

#include <array>
#include <string>

namespace engine {

namespace {

void store_be(uint8_t* p, uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) {
    p[i] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

// The header size counts its own varint, which can grow a byte as it does.
uint64_t header_size_for(uint64_t types_len) {
  uint64_t h = types_len + 1;
  while (static_cast<uint64_t>(varint_len(h)) + types_len > h) ++h;
  return h;
}

}  // namespace

std::span<const uint8_t> RecordBuilder::Build(const Value* values, int n) {
  // Each value's serial type once: the second pass writes what the first
  // measured (serial_type_for twice a column was ~15% of an UPDATE's
  // record build).
  if (types_.size() < static_cast<size_t>(n)) types_.resize(static_cast<size_t>(n));
  uint64_t* const types = types_.data();
  uint64_t types_len = 0;
  uint64_t body_len = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t t = serial_type_for(values[i], file_format_);
    types[i] = t;
    types_len += static_cast<uint64_t>(varint_len(t));
    body_len += serial_type_len(t);
  }
  const uint64_t hdr = header_size_for(types_len);
  buf_.resize(hdr + body_len);
  uint8_t* h = buf_.data();
  uint8_t* b = buf_.data() + hdr;
  h += put_varint(h, hdr);
  for (int i = 0; i < n; ++i) {
    const Value& v = values[i];
    const uint64_t t = types[i];
    h += put_varint(h, t);
    switch (t) {
      case 0:
      case 8:
      case 9:
        break;
      case 7: {
        uint64_t bits;
        const double d = v.as_real();
        std::memcpy(&bits, &d, sizeof bits);
        store_be(b, bits, 8);
        b += 8;
        break;
      }
      default:
        if (t <= 6) {
          const int len = static_cast<int>(serial_type_len(t));
          store_be(b, static_cast<uint64_t>(v.as_int()), len);
          b += len;
        } else if (v.size() > 0) {
          std::memcpy(b, v.data(), v.size());
          b += v.size();
        }
    }
  }
  return {buf_.data(), buf_.size()};
}

namespace {

// Body length of each one-byte serial type (all but a few columns' types),
// so the header walk costs a load per column, not serial_type_len's
// branches; the reserved types 10 and 11 read as a length no payload has,
// which the bounds test then rejects.
constexpr uint64_t kReservedLen = uint64_t{1} << 40;
constexpr auto kOneByteLen = [] {
  std::array<uint64_t, 128> len{};
  for (uint64_t t = 0; t < 128; ++t) len[t] = serial_type_len(t);
  len[10] = len[11] = kReservedLen;
  return len;
}();

Status BadColumn(uint64_t t, size_t col, size_t size) {
  if (t == 10 || t == 11) {
    return Status::Corruption("record uses reserved serial type " + std::to_string(t));
  }
  return Status::Corruption("record column " + std::to_string(col) + " runs past the end of a " +
                            std::to_string(size) + "-byte payload");
}

}  // namespace

Status RecordReader::Parse(const uint8_t* data, size_t size) {
  data_ = data;
  size_ = size;
  ncols_ = 0;
  // A record is at most kMaxPayload bytes (SQLite's limit is 1e9), so the
  // sums below stay far from overflow and from kReservedLen.
  if (size > kMaxPayload) [[unlikely]]
    return Status::Corruption("record of " + std::to_string(size) + " bytes");
  uint64_t hdr;
  int n = get_varint_bounded(data, data + size, &hdr);
  if (n == 0 || hdr < static_cast<uint64_t>(n) || hdr > size) [[unlikely]] {
    return Status::Corruption("record header size " + std::to_string(n == 0 ? 0 : hdr) +
                              " outside a payload of " + std::to_string(size) + " bytes");
  }
  const uint8_t* p = data + n;
  const uint8_t* const hend = data + hdr;
  // Every serial type takes at least a byte: room for all of them up front.
  const size_t most = static_cast<size_t>(hend - p);
  if (cols_.size() < most) [[unlikely]]
    cols_.resize(most);
  Col* const cols = cols_.data();
  Col* c = cols;
  uint64_t offset = hdr;
  while (p < hend) {
    uint64_t t = *p;
    uint64_t len;
    if (t < 0x80) [[likely]] {
      len = kOneByteLen[t];
      ++p;
    } else {
      const int k = get_varint_bounded(p, hend, &t);
      if (k == 0) return Status::Corruption("record header ends inside a serial type");
      p += k;
      // Longer types are TEXT and BLOB lengths, but a varint may spell a
      // small number in more bytes than it needs (10 as 0x80 0x0a).
      len = serial_type_len(t);
      if (t == 10 || t == 11 || len > kMaxPayload)
        return BadColumn(t, static_cast<size_t>(c - cols), size);
    }
    c->serial_type = t;
    c->offset = static_cast<uint32_t>(offset);
    offset += len;
    if (offset > size) [[unlikely]]
      return BadColumn(t, static_cast<size_t>(c - cols), size);
    ++c;
  }
  ncols_ = static_cast<size_t>(c - cols);
  return Status::OK();
}

Status compare_record(const uint8_t* rec, size_t size, const Value* key, int nkey, KeyOrder order,
                      int* result) {
  if (!record_internal::compare_record_local(rec, size, key, nkey, order.data(), order.size(),
                                             result)) {
    return Status::Corruption("malformed index key (bad header, serial type or length)");
  }
  return Status::OK();
}

}  // namespace engine
