// The benchmark's view of the engine, the twin of sqlite_conn.h: the same
// inline shape over engine::Database / engine::Statement, so that a workload
// template compiles to direct calls on either side.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/bench/bench_error.h"
#include "engine/database.h"
#include "engine/statement.h"

namespace bench {

class EngineStmt {
 public:
  explicit EngineStmt(std::unique_ptr<engine::Statement> st) : st_(std::move(st)) {}

  void bind(int i, int64_t v) { check(st_->BindInt(i, v)); }
  void bind(int i, int v) { bind(i, int64_t{v}); }
  void bind(int i, double v) { check(st_->BindReal(i, v)); }
  void bind(int i, std::string_view v) { check(st_->BindText(i, v)); }
  void bind_null(int i) { check(st_->BindNull(i)); }
  bool step() {
    auto r = st_->Step();
    if (!r.ok()) throw BenchError("engine step failed: " + r.status().ToString());
    return *r;
  }
  void reset() { check(st_->Reset()); }
  int columns() const { return st_->column_count(); }
  // SQLite's type codes, so both sides read results through one code path.
  int type(int i) const {
    switch (st_->column_type(i)) {
      case engine::ValueType::kInteger:
        return 1;
      case engine::ValueType::kReal:
        return 2;
      case engine::ValueType::kText:
        return 3;
      case engine::ValueType::kBlob:
        return 4;
      case engine::ValueType::kNull:
        return 5;
    }
    return 5;
  }
  int64_t int64(int i) const { return st_->column_int(i); }
  double real(int i) const { return st_->column_real(i); }
  std::string_view text(int i) const { return st_->column_text(i); }

 private:
  static void check(const engine::Status& s) {
    if (!s.ok()) throw BenchError("engine: " + s.ToString());
  }
  std::unique_ptr<engine::Statement> st_;
};

class EngineConn {
 public:
  using Stmt = EngineStmt;
  static constexpr const char* kName = "engine";

  explicit EngineConn(const std::string& path) {
    engine::DatabaseOptions opts;
    // The settings shared with SQLite (see engine/bench/README.md): rollback
    // journal, NORMAL sync, the same 20,000-page cache, which holds the
    // working set.
    opts.synchronous = engine::Synchronous::kNormal;
    opts.cache_pages = 20000;
    auto db = engine::Database::Open(path, opts);
    if (!db.ok()) throw BenchError("cannot open " + path + ": " + db.status().ToString());
    db_ = std::move(db).value();
  }

  std::unique_ptr<Stmt> prepare(std::string_view sql) {
    auto st = db_->Prepare(sql);
    if (!st.ok())
      throw BenchError("engine prepare failed: " + st.status().ToString() +
                       " in: " + std::string(sql));
    return std::make_unique<Stmt>(std::move(st).value());
  }
  void exec(const std::string& sql) {
    engine::Status s = db_->Exec(sql);
    if (!s.ok()) throw BenchError("engine: " + s.ToString() + " in: " + sql);
  }

 private:
  std::unique_ptr<engine::Database> db_;
};

}  // namespace bench
