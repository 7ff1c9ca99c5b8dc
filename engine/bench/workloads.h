// The workloads, each written once as a template over the connection type
// (SqliteConn or EngineConn) so that both sides run the same SQL with the
// same keys. A workload prepares its statements once, in its constructor;
// iterate() is the timed body of one benchmark iteration.
//
// verify() runs a fixed amount of the workload into a Checksum; the harness
// runs it on both sides once per process and refuses to time a workload
// whose results differ.
#pragma once

#include <memory>
#include <string>

#include "engine/bench/data_gen.h"
#include "engine/bench/row_sink.h"
#include "engine/bench/timing.h"

namespace bench {

template <class Conn>
using StmtPtr = std::unique_ptr<typename Conn::Stmt>;

// Every row of a prepared query into `out`, then reset for the next run.
template <class Stmt, class Out>
inline void Drain(Stmt& q, Out& out) {
  const int n = q.columns();
  while (q.step()) out.row(q, n);
  q.reset();
}

// Binds a..., in order, to ?1, ?2, ...: pass values, not expressions with
// side effects (argument evaluation order is unspecified).
template <class Stmt, class... A>
inline void Bind(Stmt& q, const A&... a) {
  int i = 0;
  (q.bind(++i, a), ...);
}

// Binds and runs a statement that returns no rows (INSERT, UPDATE, DELETE).
template <class Stmt, class... A>
inline void Exec(Stmt& q, const A&... a) {
  Bind(q, a...);
  while (q.step()) {
  }
  q.reset();
}

// Order-insensitive checksum of a whole table (for the write workloads).
template <class Conn>
void ChecksumTable(Conn& c, const std::string& table, Checksum& out) {
  auto q = c.prepare("SELECT * FROM " + table);
  Drain(*q, out);
}

template <class Conn>
struct ReadFullScan {
  static constexpr const char* kName = "read_full_scan";
  StmtPtr<Conn> q;
  explicit ReadFullScan(Conn& c) : q(c.prepare("SELECT * FROM bench_data")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) { iterate(out, nullptr); }
};

template <class Conn>
struct ReadJoin {
  static constexpr const char* kName = "read_join";
  StmtPtr<Conn> q;
  explicit ReadJoin(Conn& c)
      : q(c.prepare("SELECT d.id, l.label FROM bench_data d JOIN bench_lookup l "
                    "ON l.code = d.bucket")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) { iterate(out, nullptr); }
};

template <class Conn>
struct PointLookup {
  static constexpr const char* kName = "point_lookup";
  StmtPtr<Conn> q;
  Rng rng{101};
  explicit PointLookup(Conn& c) : q(c.prepare("SELECT * FROM bench_data WHERE id = ?")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    q->bind(1, rng.range(1, kBenchDataRows));
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) {
    for (int i = 0; i < 500; ++i) iterate(out, nullptr);
  }
};

template <class Conn>
struct RangeScan {
  static constexpr const char* kName = "range_scan";
  StmtPtr<Conn> q;
  Rng rng{202};
  explicit RangeScan(Conn& c)
      : q(c.prepare("SELECT abalance FROM accounts WHERE aid BETWEEN ? AND ? + 2000")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    int64_t lo = rng.range(1, kAccountRows - 2000);
    q->bind(1, lo);
    q->bind(2, lo);
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) {
    for (int i = 0; i < 20; ++i) iterate(out, nullptr);
  }
};

template <class Conn>
struct IndexRange {
  static constexpr const char* kName = "index_range";
  StmtPtr<Conn> q;
  Rng rng{303};
  explicit IndexRange(Conn& c)
      : q(c.prepare("SELECT id, n FROM bench_data WHERE x BETWEEN ? AND ?")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    int64_t lo = rng.range(0, 99000);
    q->bind(1, lo);
    q->bind(2, lo + 1000);  // about 167 of 16,700 rows
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) {
    for (int i = 0; i < 50; ++i) iterate(out, nullptr);
  }
};

template <class Conn>
struct GroupByAgg {
  static constexpr const char* kName = "group_by_agg";
  StmtPtr<Conn> q;
  explicit GroupByAgg(Conn& c)
      : q(c.prepare("SELECT bucket, count(*), sum(n), avg(f) FROM bench_data GROUP BY bucket")) {}
  template <class Out>
  void iterate(Out& out, Timing*) {
    Drain(*q, out);
  }
  void verify(Conn&, Checksum& out) { iterate(out, nullptr); }
};

// 1,000 prepared inserts in one transaction into a table created afresh
// before each iteration (outside the timing).
template <class Conn>
struct InsertBatch {
  static constexpr const char* kName = "insert_batch";
  static constexpr int kRows = 1000;
  Conn& c;
  StmtPtr<Conn> ins;
  Rng rng{404};
  explicit InsertBatch(Conn& conn) : c(conn) { Fresh(); }
  void Fresh() {
    ins.reset();
    c.exec(
        "DROP TABLE IF EXISTS insert_target;"
        "CREATE TABLE insert_target(id INTEGER PRIMARY KEY, n INTEGER, f REAL, s TEXT);");
    ins = c.prepare("INSERT INTO insert_target VALUES (?, ?, ?, ?)");
  }
  template <class Out>
  void iterate(Out&, Timing* timing) {
    if (timing) timing->pause();
    Fresh();
    if (timing) timing->resume();
    c.exec("BEGIN");
    for (int i = 1; i <= kRows; ++i) {
      ins->bind(1, int64_t{i});
      ins->bind(2, rng.range(0, 1 << 30));
      ins->bind(3, static_cast<double>(rng.range(0, 1000000)) / 7.0);
      ins->bind(4, std::string_view("insert-batch-row-payload").substr(0, 8 + i % 16));
      ins->step();
      ins->reset();
    }
    c.exec("COMMIT");
  }
  void verify(Conn& conn, Checksum& out) {
    iterate(out, nullptr);
    ChecksumTable(conn, "insert_target", out);
  }
};

template <class Conn>
struct UpdateByPk {
  static constexpr const char* kName = "update_by_pk";
  static constexpr int kPerTxn = 10;
  Conn& c;
  StmtPtr<Conn> upd;
  Rng rng{505};
  explicit UpdateByPk(Conn& conn)
      : c(conn), upd(conn.prepare("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?")) {}
  template <class Out>
  void iterate(Out&, Timing*) {
    c.exec("BEGIN");
    for (int i = 0; i < kPerTxn; ++i) {
      upd->bind(1, rng.range(-5000, 5000));
      upd->bind(2, rng.range(1, kAccountRows));
      while (upd->step()) {
      }
      upd->reset();
    }
    c.exec("COMMIT");
  }
  void verify(Conn& conn, Checksum& out) {
    for (int i = 0; i < 20; ++i) iterate(out, nullptr);
    auto q = conn.prepare("SELECT sum(abalance), count(*) FROM accounts WHERE abalance <> 0");
    Drain(*q, out);
  }
};

// Fresh SQL text for every statement, each prepared, run and finalized:
// the shell's pattern and many ORMs' (issue 20). Ten rounds an iteration of
// a point select, an update and an insert (OR REPLACE over 1,000 keys, so
// the table keeps its size), in one transaction so that the commit's sync
// does not drown the statements' own cost.
template <class Conn>
struct AdhocSql {
  static constexpr const char* kName = "adhoc_sql";
  Conn& c;
  Rng rng{606};
  explicit AdhocSql(Conn& conn) : c(conn) {
    c.exec("CREATE TABLE IF NOT EXISTS adhoc_target(id INTEGER PRIMARY KEY, n INTEGER, s TEXT)");
  }
  template <class Out>
  void iterate(Out& out, Timing*) {
    c.exec("BEGIN");
    for (int i = 0; i < 10; ++i) {
      const std::string k = std::to_string(rng.range(1, kBenchDataRows));
      auto sel = c.prepare("SELECT * FROM bench_data WHERE id = " + k);
      Drain(*sel, out);
      auto upd = c.prepare("UPDATE accounts SET abalance = abalance + " +
                           std::to_string(rng.range(-50, 50)) +
                           " WHERE aid = " + std::to_string(rng.range(1, kAccountRows)));
      while (upd->step()) {
      }
      auto ins = c.prepare("INSERT OR REPLACE INTO adhoc_target VALUES(" +
                           std::to_string(rng.range(1, 1000)) + ", " + std::to_string(i) +
                           ", 'adhoc row " + k + "')");
      while (ins->step()) {
      }
    }
    c.exec("COMMIT");
  }
  void verify(Conn& conn, Checksum& out) {
    for (int i = 0; i < 5; ++i) iterate(out, nullptr);
    ChecksumTable(conn, "adhoc_target", out);
  }
};

// CREATE INDEX over bench_data's rows on a text and a real column (issue
// 20: index builds by sorting), dropped again outside the timing.
template <class Conn>
struct CreateIndex {
  static constexpr const char* kName = "create_index";
  Conn& c;
  explicit CreateIndex(Conn& conn) : c(conn) {}
  template <class Out>
  void iterate(Out&, Timing* timing) {
    if (timing) timing->pause();
    c.exec("DROP INDEX IF EXISTS bench_data_s_f");
    if (timing) timing->resume();
    c.exec("CREATE INDEX bench_data_s_f ON bench_data(s, f)");
  }
  void verify(Conn& conn, Checksum& out) {
    iterate(out, nullptr);
    // Read through the index just built: its entries, in its order.
    auto q = conn.prepare(
        "SELECT s, f, id FROM bench_data INDEXED BY bench_data_s_f WHERE s >= '' ORDER BY s, f");
    Drain(*q, out);
  }
};

}  // namespace bench
