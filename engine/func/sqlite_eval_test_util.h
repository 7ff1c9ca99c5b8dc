// Test support: evaluate SQL in the real SQLite (the oracle) and hold the
// result as an engine::Value with its own bytes, so that tests can compare
// the functions in this folder with SQLite's answers.
#pragma once

#include <sqlite3.h>

#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/value.h"

namespace engine::func::testing {

struct OracleValue {
  bool ok = false;
  std::string error;  // sqlite3_errmsg when !ok
  ValueType type = ValueType::kNull;
  int64_t i = 0;
  double r = 0.0;
  std::string bytes;  // TEXT/BLOB bytes
  std::string text;   // sqlite3_column_text of the value (its SQLite rendering)

  Value value() const {
    switch (type) {
      case ValueType::kNull:
        return Value::Null();
      case ValueType::kInteger:
        return Value::Integer(i);
      case ValueType::kReal:
        return Value::Real(r);
      case ValueType::kText:
        return Value::Text(bytes);
      case ValueType::kBlob:
        return Value::Blob(bytes.data(), bytes.size());
    }
    return Value::Null();
  }
};

// Runs `sql` (a one-row statement) and returns column `col` of its first
// row; a statement with no row gives NULL.
inline OracleValue QueryOracle(sqlite3* db, const std::string& sql, int col = 0) {
  OracleValue out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) !=
      SQLITE_OK) {
    out.error = sqlite3_errmsg(db);
    return out;
  }
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    out.ok = true;
    switch (sqlite3_column_type(stmt, col)) {
      case SQLITE_INTEGER:
        out.type = ValueType::kInteger;
        out.i = sqlite3_column_int64(stmt, col);
        break;
      case SQLITE_FLOAT:
        out.type = ValueType::kReal;
        out.r = sqlite3_column_double(stmt, col);
        break;
      case SQLITE_TEXT: {
        out.type = ValueType::kText;
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
        out.bytes.assign(p ? p : "", static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
        break;
      }
      case SQLITE_BLOB: {
        out.type = ValueType::kBlob;
        const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, col));
        out.bytes.assign(p ? p : "", static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
        break;
      }
      default:
        out.type = ValueType::kNull;
        break;
    }
    const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
    if (t != nullptr) out.text.assign(t, static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
  } else if (rc == SQLITE_DONE) {
    out.ok = true;
  } else {
    out.error = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  return out;
}

// Same type and same value (REALs bit for bit, but 0.0 == -0.0).
inline bool SameValue(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ValueType::kNull:
      return true;
    case ValueType::kInteger:
      return a.as_int() == b.as_int();
    case ValueType::kReal:
      return a.as_real() == b.as_real() || (std::isnan(a.as_real()) && std::isnan(b.as_real()));
    case ValueType::kText:
    case ValueType::kBlob:
      return a.as_text() == b.as_text();
  }
  return false;
}

// A readable rendering for failure messages: typeof:value.
inline std::string Describe(const Value& v) {
  static const char kHex[] = "0123456789ABCDEF";
  switch (v.type()) {
    case ValueType::kNull:
      return "null";
    case ValueType::kInteger:
      return "integer:" + std::to_string(v.as_int());
    case ValueType::kReal: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "real:%.17g", v.as_real());
      return buf;
    }
    case ValueType::kText:
      return "text:'" + std::string(v.as_text()) + "'";
    case ValueType::kBlob: {
      std::string s = "blob:x'";
      for (char c : v.as_text()) {
        s.push_back(kHex[(static_cast<unsigned char>(c) >> 4) & 0xf]);
        s.push_back(kHex[static_cast<unsigned char>(c) & 0xf]);
      }
      return s + "'";
    }
  }
  return "?";
}

// Whether f(n arguments) reads the clock ('now' with no time value given):
// its result differs between the engine and sqlite3 by the time between the
// two calls, so tests comparing random calls leave it out.
inline bool ReadsClock(std::string_view name, int n) {
  if (name == "strftime") return n == 1;
  return n == 0 && (name == "date" || name == "time" || name == "datetime" || name == "julianday" ||
                    name == "unixepoch" || name == "current_date" || name == "current_time" ||
                    name == "current_timestamp");
}

// An in-memory SQLite connection for a test.
class OracleDb {
 public:
  OracleDb() { sqlite3_open(":memory:", &db_); }
  ~OracleDb() { sqlite3_close(db_); }
  OracleDb(const OracleDb&) = delete;
  OracleDb& operator=(const OracleDb&) = delete;
  sqlite3* get() { return db_; }
  bool Exec(const std::string& sql) {
    return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  }
  OracleValue Eval(const std::string& expr) { return QueryOracle(db_, "SELECT " + expr); }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace engine::func::testing
