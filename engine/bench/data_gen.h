// The benchmark data: one generator with a fixed seed builds every table
// once into a template database (cached on disk between processes, keyed by
// the generator's version and the scale), and each process copies it for
// each side, so the engine and SQLite read the same logical data — in fact
// the same pages.
#pragma once

#include <cstdint>
#include <string>

namespace bench {

// splitmix64: small, fast and identical everywhere, so both sides (and
// every run) see the same keys and the same data.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  std::string text(int min_len, int max_len);

 private:
  uint64_t s_;
};

struct Scale {
  // 1.0 is the documented size; smaller values shrink TPC-C's items,
  // customers and orders (and nothing else) for quick runs.
  double tpcc = 1.0;
};

inline constexpr int kBenchDataRows = 16700;
inline constexpr int kLookupRows = 1000;
inline constexpr int kAccountRows = 100000;

struct TpccSizes {
  int warehouses = 1;
  int districts = 10;
  int customers_per_district;
  int orders_per_district;
  int items;
  static TpccSizes For(const Scale& s);
};

// TPC-C's customer last name for n in [0, 999]: three syllables, the loader's
// and the transactions' lookups by name must agree on them.
std::string LastName(int n);

// Path of the template database for this scale, building it if needed
// (atomically: written to a temporary name, then renamed).
std::string TemplateDatabase(const Scale& scale);

// A fresh copy of the template in this process's scratch folder.
std::string CopyOfTemplate(const Scale& scale, const std::string& name);

}  // namespace bench
