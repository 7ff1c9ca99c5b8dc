// Consuming results: every column of every row is read on both sides, so
// neither engine can skip decoding. The sink is cheap (it folds values into
// two integers); the checksum is exact and used once per process to prove
// that both engines returned the same rows.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace bench {

struct Sink {
  uint64_t acc = 0;
  template <class Stmt>
  void row(const Stmt& st, int ncols) {
    for (int i = 0; i < ncols; ++i) {
      // Reading by the column's own type is what a real client does.
      switch (st.type(i)) {
        case 1:
          acc += static_cast<uint64_t>(st.int64(i));
          break;
        case 2: {
          double d = st.real(i);
          uint64_t bits;
          std::memcpy(&bits, &d, sizeof bits);
          acc ^= bits;
          break;
        }
        case 3: {
          std::string_view t = st.text(i);
          acc += t.size() + (t.empty() ? 0 : static_cast<unsigned char>(t[0]));
          break;
        }
        default:
          acc += 7;
      }
    }
  }
};

// An exact fingerprint of a result: each row is hashed from its values'
// types and canonical renderings (reals to 15 significant digits, as SQLite
// prints them); rows are combined by sum, so order does not matter (the
// two engines may return an unordered result in different orders).
class Checksum {
 public:
  template <class Stmt>
  void row(const Stmt& st, int ncols) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](const void* p, size_t n) {
      const auto* b = static_cast<const unsigned char*>(p);
      for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 1099511628211ull;
    };
    for (int i = 0; i < ncols; ++i) {
      int t = st.type(i);
      char buf[40];
      int n = 0;
      if (t == 1) n = std::snprintf(buf, sizeof buf, "i%lld", static_cast<long long>(st.int64(i)));
      if (t == 2) n = std::snprintf(buf, sizeof buf, "r%.15g", st.real(i));
      if (t == 3) {
        mix("t", 1);
        std::string_view s = st.text(i);
        mix(s.data(), s.size());
      }
      if (t != 1 && t != 2 && t != 3) n = std::snprintf(buf, sizeof buf, "n");
      mix(buf, static_cast<size_t>(n));
      mix("|", 1);
    }
    value_ += h;
    ++rows_;
  }
  uint64_t value() const { return value_; }
  uint64_t rows() const { return rows_; }

 private:
  uint64_t value_ = 0;
  uint64_t rows_ = 0;
};

}  // namespace bench
