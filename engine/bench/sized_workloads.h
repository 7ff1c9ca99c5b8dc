// Workloads over a size n, registered as Google Benchmark families
// ("engine/range_scan_len/1000" ... ; engine_bench.cc), where a user expects
// cost linear in n: perfci.json's scaling contracts (issue 18) hold them to
// it, so that an O(n^2) drain or a per-row cost that grows with the result
// fails the check with the exponent named.
//
// Each takes n in its constructor (verify() uses kVerifySize); like the
// fixed workloads they are templates over the connection, and both sides'
// results are compared before anything is timed.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/bench/workloads.h"

namespace bench {

// The rows of one primary-key range: the range iterator's drain.
template <class Conn>
struct RangeScanLen {
  static constexpr const char* kName = "range_scan_len";
  static constexpr int64_t kVerifySize = 1000;
  int64_t n;
  StmtPtr<Conn> q;
  Rng rng{505};
  explicit RangeScanLen(Conn& c, int64_t rows = kVerifySize)
      : n(rows), q(c.prepare("SELECT abalance FROM accounts WHERE aid BETWEEN ? AND ?")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    const int64_t lo = rng.range(1, kAccountRows - n);
    Bind(*q, lo, lo + n - 1);
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) {
    for (int i = 0; i < 5; ++i) iterate(out, nullptr);
  }
};

// The first n rows of a table, every column: a long result drained.
template <class Conn>
struct DrainRows {
  static constexpr const char* kName = "drain_rows";
  static constexpr int64_t kVerifySize = 4000;
  int64_t n;
  StmtPtr<Conn> q;
  explicit DrainRows(Conn& c, int64_t rows = kVerifySize)
      : n(rows), q(c.prepare("SELECT * FROM bench_data ORDER BY id LIMIT ?")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    Bind(*q, n);
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) { iterate(out, nullptr); }
};

// n rows inserted in one transaction into an empty table.
template <class Conn>
struct InsertRows {
  static constexpr const char* kName = "insert_rows";
  static constexpr int64_t kVerifySize = 1000;
  int64_t n;
  Conn& c;
  StmtPtr<Conn> ins;
  Rng rng{606};
  explicit InsertRows(Conn& conn, int64_t rows = kVerifySize) : n(rows), c(conn) { Fresh(); }
  void Fresh() {
    ins.reset();
    c.exec(
        "DROP TABLE IF EXISTS insert_rows_target;"
        "CREATE TABLE insert_rows_target(id INTEGER PRIMARY KEY, n INTEGER, s TEXT);");
    ins = c.prepare("INSERT INTO insert_rows_target VALUES (?, ?, ?)");
  }
  template <class Out>
  void iterate(Out&, Timing* timing) {
    if (timing) timing->pause();
    Fresh();
    if (timing) timing->resume();
    c.exec("BEGIN");
    for (int64_t i = 1; i <= n; ++i)
      Exec(*ins, i, rng.range(0, 1 << 30),
           std::string_view("insert-rows-payload").substr(0, 8 + i % 12));
    c.exec("COMMIT");
  }
  void verify(Conn& conn, Checksum& out) {
    iterate(out, nullptr);
    ChecksumTable(conn, "insert_rows_target", out);
  }
};

}  // namespace bench
