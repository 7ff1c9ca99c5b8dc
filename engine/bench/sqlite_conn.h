// The benchmark's view of the oracle: the real SQLite through its C API, in
// the same shape as engine_conn.h so that every workload is written once, as
// a template, and both sides run identical SQL. Calls are inline so the
// wrapper adds nothing to the measured loops. Errors throw BenchError: the
// benchmark body turns it into SkipWithError.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/bench/bench_error.h"

namespace bench {

class SqliteStmt {
 public:
  SqliteStmt(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &st_, nullptr) != SQLITE_OK) {
      throw BenchError("sqlite prepare failed: " + std::string(sqlite3_errmsg(db)) +
                       " in: " + std::string(sql));
    }
  }
  ~SqliteStmt() { sqlite3_finalize(st_); }
  SqliteStmt(const SqliteStmt&) = delete;
  SqliteStmt& operator=(const SqliteStmt&) = delete;

  void bind(int i, int64_t v) { check(sqlite3_bind_int64(st_, i, v)); }
  void bind(int i, int v) { bind(i, int64_t{v}); }
  void bind(int i, double v) { check(sqlite3_bind_double(st_, i, v)); }
  void bind(int i, std::string_view v) {
    check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  void bind_null(int i) { check(sqlite3_bind_null(st_, i)); }
  // True when a row is ready.
  bool step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw BenchError("sqlite step failed: " + std::string(sqlite3_errmsg(db_)));
  }
  void reset() { sqlite3_reset(st_); }
  int columns() const { return sqlite3_column_count(st_); }
  // 1 integer, 2 real, 3 text, 4 blob, 5 null: SQLite's codes.
  int type(int i) const { return sqlite3_column_type(st_, i); }
  int64_t int64(int i) const { return sqlite3_column_int64(st_, i); }
  double real(int i) const { return sqlite3_column_double(st_, i); }
  std::string_view text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st_, i));
    return {p ? p : "", static_cast<size_t>(sqlite3_column_bytes(st_, i))};
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK)
      throw BenchError("sqlite bind failed: " + std::string(sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

class SqliteConn {
 public:
  using Stmt = SqliteStmt;
  static constexpr const char* kName = "sqlite";

  explicit SqliteConn(const std::string& path) {
    // NOMUTEX: one thread uses the connection, and the engine takes no locks
    // per call either; serialized mode would add a mutex round trip to every
    // bind, step and column read.
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw BenchError("cannot open " + path + ": " + msg);
    }
    // The settings shared with the engine (see engine/bench/README.md).
    exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA cache_size=20000;");
  }
  ~SqliteConn() { sqlite3_close(db_); }
  SqliteConn(const SqliteConn&) = delete;
  SqliteConn& operator=(const SqliteConn&) = delete;

  std::unique_ptr<Stmt> prepare(std::string_view sql) { return std::make_unique<Stmt>(db_, sql); }

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown error";
      sqlite3_free(err);
      throw BenchError("sqlite: " + msg + " in: " + sql);
    }
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace bench
