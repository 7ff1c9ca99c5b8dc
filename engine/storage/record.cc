#include "engine/storage/record.h"

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
  uint64_t types_len = 0;
  uint64_t body_len = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t t = serial_type_for(values[i], file_format_);
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
    const uint64_t t = serial_type_for(v, file_format_);
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

Status RecordReader::Parse(const uint8_t* data, size_t size) {
  data_ = data;
  size_ = size;
  ncols_ = 0;
  const uint8_t* end = data + size;
  uint64_t hdr;
  int n = get_varint_bounded(data, end, &hdr);
  if (n == 0 || hdr < static_cast<uint64_t>(n) || hdr > size) {
    return Status::Corruption("record header size " + std::to_string(n == 0 ? 0 : hdr) +
                              " outside a payload of " + std::to_string(size) + " bytes");
  }
  const uint8_t* p = data + n;
  const uint8_t* hend = data + hdr;
  uint64_t offset = hdr;
  // Every serial type takes at least a byte: room for all of them up front.
  const size_t most = static_cast<size_t>(hend - p);
  if (cols_.size() < most) cols_.resize(most);
  Col* cols = cols_.data();
  size_t ncols = 0;
  while (p < hend) {
    uint64_t t = *p;
    int k = 1;
    if (t >= 0x80) {
      k = get_varint_bounded(p, hend, &t);
      if (k == 0) return Status::Corruption("record header ends inside a serial type");
    }
    if (t == 10 || t == 11) {
      return Status::Corruption("record uses reserved serial type " + std::to_string(t));
    }
    const uint64_t len = serial_type_len(t);
    if (len > size - offset) {
      return Status::Corruption("record column " + std::to_string(ncols) +
                                " runs past the end of a " + std::to_string(size) +
                                "-byte payload");
    }
    cols[ncols++] = Col{t, static_cast<uint32_t>(offset)};
    offset += len;
    p += k;
  }
  ncols_ = ncols;
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
