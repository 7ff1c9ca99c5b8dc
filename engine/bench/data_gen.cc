#include "engine/bench/data_gen.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <vector>

#include "engine/bench/bench_error.h"
#include "engine/bench/sqlite_conn.h"
#include "engine/bench/tpcc_schema.h"

namespace bench {
namespace {

// Bump when the data or the schema changes: old cached templates are then
// ignored.
constexpr int kGeneratorVersion = 1;
constexpr uint64_t kSeed = 20261201;

namespace fs = std::filesystem;

fs::path CacheDir() {
  const char* env = std::getenv("ENGINE_BENCH_DATA");
  fs::path dir = env && *env ? fs::path(env) : fs::temp_directory_path() / "engine-bench-data";
  fs::create_directories(dir);
  return dir;
}

const fs::path& ScratchDir() {
  static const fs::path dir = [] {
    // tmpfs when there is one: fsync there costs nothing, so the write
    // workloads measure the engines rather than the disk (both sides still
    // issue the same syncs). ENGINE_BENCH_SCRATCH overrides.
    const char* env = std::getenv("ENGINE_BENCH_SCRATCH");
    fs::path base = env && *env ? fs::path(env)
                                : (access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm")
                                                                 : fs::temp_directory_path());
    std::string tmpl = (base / "engine-bench-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw BenchError("cannot create a scratch folder");
    return fs::path(tmpl);
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(ScratchDir(), ec);
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

void LoadBenchTables(SqliteConn& db, Rng& rng) {
  db.exec(
      "CREATE TABLE bench_data(id INTEGER PRIMARY KEY, n INTEGER, x INTEGER, f REAL, s TEXT, "
      "bucket INTEGER);"
      "CREATE TABLE bench_lookup(code INTEGER PRIMARY KEY, label TEXT);"
      "CREATE TABLE accounts(aid INTEGER PRIMARY KEY, bid INTEGER, abalance INTEGER, "
      "filler TEXT);");
  auto data = db.prepare("INSERT INTO bench_data VALUES (?, ?, ?, ?, ?, ?)");
  for (int id = 1; id <= kBenchDataRows; ++id) {
    data->bind(1, id);
    data->bind(2, rng.range(0, 1000000));
    data->bind(3, rng.range(0, 100000));
    data->bind(4, std::round(rng.unit() * 1e6) / 100.0);
    data->bind(5, rng.text(8, 40));
    data->bind(6, rng.range(1, kLookupRows));
    data->step();
    data->reset();
  }
  db.exec("CREATE INDEX bench_data_x ON bench_data(x);");
  auto lookup = db.prepare("INSERT INTO bench_lookup VALUES (?, ?)");
  for (int code = 1; code <= kLookupRows; ++code) {
    lookup->bind(1, code);
    lookup->bind(2, "label-" + std::to_string(code) + "-" + rng.text(4, 12));
    lookup->step();
    lookup->reset();
  }
  // pgbench's shape: one branch per 100,000 accounts, balance 0, 84 chars.
  auto acc = db.prepare("INSERT INTO accounts VALUES (?, ?, 0, ?)");
  const std::string filler(84, ' ');
  for (int aid = 1; aid <= kAccountRows; ++aid) {
    acc->bind(1, aid);
    acc->bind(2, (aid - 1) / 100000 + 1);
    acc->bind(3, filler);
    acc->step();
    acc->reset();
  }
}

// TPC-C's NURand-free loader: uniform data of the standard shapes. Customer
// last names come from the spec's syllables so the by-name lookups match
// several customers, as in the real benchmark.
void LoadTpcc(SqliteConn& db, Rng& rng, const TpccSizes& z) {
  db.exec(kTpccSchema);
  auto item = db.prepare("INSERT INTO item VALUES (?, ?, ?, ?, ?)");
  for (int i = 1; i <= z.items; ++i) {
    item->bind(1, i);
    item->bind(2, rng.range(1, 10000));
    item->bind(3, rng.text(14, 24));
    item->bind(4, static_cast<double>(rng.range(100, 10000)) / 100.0);
    item->bind(5, rng.text(26, 50));
    item->step();
    item->reset();
  }
  auto wh = db.prepare("INSERT INTO warehouse VALUES (?, ?, ?, ?, ?, ?, ?, 300000.0)");
  auto dist = db.prepare("INSERT INTO district VALUES (?, ?, ?, ?, ?, ?, ?, ?, 30000.0, ?)");
  auto cust = db.prepare(
      "INSERT INTO customer VALUES (?, ?, ?, ?, 'OE', ?, ?, ?, ?, ?, ?, 0, ?, 50000.0, ?, -10.0, "
      "10.0, 1, 0, ?)");
  auto hist = db.prepare("INSERT INTO history VALUES (?, ?, ?, ?, ?, 0, 10.0, ?)");
  auto ord = db.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, 0, ?, ?, 1)");
  auto ol = db.prepare("INSERT INTO order_line VALUES (?, ?, ?, ?, ?, ?, ?, 5, ?, ?)");
  auto no = db.prepare("INSERT INTO new_order VALUES (?, ?, ?)");
  auto stock = db.prepare("INSERT INTO stock VALUES (?, ?, ?, ?, 0, 0, 0, ?)");
  for (int w = 1; w <= z.warehouses; ++w) {
    wh->bind(1, w);
    for (int k = 2; k <= 6; ++k) wh->bind(k, rng.text(6, 10));
    wh->bind(7, static_cast<double>(rng.range(0, 2000)) / 10000.0);
    wh->step();
    wh->reset();
    for (int i = 1; i <= z.items; ++i) {
      stock->bind(1, i);
      stock->bind(2, w);
      stock->bind(3, rng.range(10, 100));
      stock->bind(4, rng.text(24, 24));
      stock->bind(5, rng.text(26, 50));
      stock->step();
      stock->reset();
    }
    for (int d = 1; d <= z.districts; ++d) {
      dist->bind(1, d);
      dist->bind(2, w);
      for (int k = 3; k <= 7; ++k) dist->bind(k, rng.text(6, 10));
      dist->bind(8, static_cast<double>(rng.range(0, 2000)) / 10000.0);
      dist->bind(9, z.orders_per_district + 1);
      dist->step();
      dist->reset();
      for (int c = 1; c <= z.customers_per_district; ++c) {
        int n = c <= 1000 ? c - 1 : static_cast<int>(rng.range(0, 999));
        std::string last = LastName(n);
        cust->bind(1, c);
        cust->bind(2, d);
        cust->bind(3, w);
        cust->bind(4, rng.text(8, 16));
        cust->bind(5, last);
        for (int k = 6; k <= 10; ++k) cust->bind(k, rng.text(8, 16));
        cust->bind(11, rng.range(0, 1) ? "GC" : "BC");
        cust->bind(12, static_cast<double>(rng.range(0, 5000)) / 10000.0);
        cust->bind(13, rng.text(100, 300));
        cust->step();
        cust->reset();
        hist->bind(1, c);
        hist->bind(2, d);
        hist->bind(3, w);
        hist->bind(4, d);
        hist->bind(5, w);
        hist->bind(6, rng.text(12, 24));
        hist->step();
        hist->reset();
      }
      // Orders for a random permutation of customers; the last 30% are
      // undelivered (in new_order, no carrier).
      std::vector<int> perm(static_cast<size_t>(z.customers_per_district));
      std::iota(perm.begin(), perm.end(), 1);
      for (size_t k = perm.size(); k > 1; --k) {
        std::swap(perm[k - 1], perm[static_cast<size_t>(rng.next() % k)]);
      }
      int undelivered_from = z.orders_per_district - z.orders_per_district * 3 / 10 + 1;
      for (int o = 1; o <= z.orders_per_district; ++o) {
        bool delivered = o < undelivered_from;
        int lines = static_cast<int>(rng.range(5, 15));
        ord->bind(1, o);
        ord->bind(2, d);
        ord->bind(3, w);
        ord->bind(4, perm[static_cast<size_t>(o - 1) % perm.size()]);
        if (delivered) {
          ord->bind(5, rng.range(1, 10));
        } else {
          ord->bind_null(5);
        }
        ord->bind(6, lines);
        ord->step();
        ord->reset();
        for (int l = 1; l <= lines; ++l) {
          ol->bind(1, o);
          ol->bind(2, d);
          ol->bind(3, w);
          ol->bind(4, l);
          ol->bind(5, rng.range(1, z.items));
          ol->bind(6, w);
          if (delivered) {
            ol->bind(7, int64_t{1});
          } else {
            ol->bind_null(7);
          }
          ol->bind(8, delivered ? 0.0 : static_cast<double>(rng.range(1, 999999)) / 100.0);
          ol->bind(9, rng.text(24, 24));
          ol->step();
          ol->reset();
        }
        if (!delivered) {
          no->bind(1, o);
          no->bind(2, d);
          no->bind(3, w);
          no->step();
          no->reset();
        }
      }
    }
  }
}

}  // namespace

std::string Rng::text(int min_len, int max_len) {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
  int n = static_cast<int>(range(min_len, max_len));
  std::string s(static_cast<size_t>(n), ' ');
  for (auto& c : s) c = kAlphabet[next() % (sizeof kAlphabet - 1)];
  return s;
}

TpccSizes TpccSizes::For(const Scale& s) {
  TpccSizes z;
  double f = std::clamp(s.tpcc, 0.01, 1.0);
  z.customers_per_district = std::max(30, static_cast<int>(3000 * f));
  z.orders_per_district = z.customers_per_district;
  z.items = std::max(1000, static_cast<int>(100000 * f));
  return z;
}

std::string LastName(int n) {
  static const char* kSyllables[] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                     "ESE", "ANTI",  "CALLY", "ATION", "EING"};
  return std::string(kSyllables[n / 100]) + kSyllables[(n / 10) % 10] + kSyllables[n % 10];
}

std::string TemplateDatabase(const Scale& scale) {
  TpccSizes z = TpccSizes::For(scale);
  fs::path path = CacheDir() / ("bench-v" + std::to_string(kGeneratorVersion) + "-c" +
                                std::to_string(z.customers_per_district) + "-i" +
                                std::to_string(z.items) + ".db");
  if (fs::exists(path)) return path.string();
  fs::path tmp = path;
  tmp += ".tmp" + std::to_string(getpid());
  fs::remove(tmp);
  {
    // A fresh file: SqliteConn opens existing files only.
    sqlite3* raw = nullptr;
    sqlite3_open(tmp.c_str(), &raw);
    sqlite3_close(raw);
    SqliteConn db(tmp.string());
    db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
    Rng rng(kSeed);
    LoadBenchTables(db, rng);
    LoadTpcc(db, rng, z);
    db.exec("COMMIT; ANALYZE;");
  }
  fs::rename(tmp, path);  // atomic: a concurrent builder's file is identical
  return path.string();
}

std::string CopyOfTemplate(const Scale& scale, const std::string& name) {
  fs::path dst = ScratchDir() / (name + ".db");
  fs::copy_file(TemplateDatabase(scale), dst, fs::copy_options::overwrite_existing);
  return dst.string();
}

}  // namespace bench
