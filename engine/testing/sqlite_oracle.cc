#include "engine/testing/sqlite_oracle.h"

#include <cstdio>

namespace engine::testing {

SqliteDb::SqliteDb(const std::string& path, bool read_only) {
  int flags = read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    error_ = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
  }
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

bool SqliteDb::Exec(const std::string& sql) {
  if (!db_) return false;
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    error_ = err ? err : "unknown error";
    sqlite3_free(err);
    return false;
  }
  return true;
}

std::vector<std::vector<std::string>> SqliteDb::Query(const std::string& sql) {
  std::vector<std::vector<std::string>> rows;
  sqlite3_stmt* st = nullptr;
  if (!db_ || sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    error_ = db_ ? sqlite3_errmsg(db_) : "not open";
    return rows;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      switch (sqlite3_column_type(st, i)) {
        case SQLITE_NULL:
          row.emplace_back("NULL");
          break;
        case SQLITE_FLOAT: {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(st, i));
          row.emplace_back(buf);
          break;
        }
        case SQLITE_BLOB: {
          const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(st, i));
          int n = sqlite3_column_bytes(st, i);
          std::string hex = "x'";
          char b[3];
          for (int k = 0; k < n; ++k) {
            std::snprintf(b, sizeof b, "%02x", p[k]);
            hex += b;
          }
          row.push_back(hex + "'");
          break;
        }
        default: {
          const auto* t = sqlite3_column_text(st, i);
          row.emplace_back(reinterpret_cast<const char*>(t), sqlite3_column_bytes(st, i));
        }
      }
    }
    rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) error_ = sqlite3_errmsg(db_);
  sqlite3_finalize(st);
  return rows;
}

std::string SqliteDb::IntegrityCheck() {
  auto rows = Query("PRAGMA integrity_check");
  if (rows.empty()) return "integrity_check failed: " + error_;
  std::string out;
  for (auto& r : rows) {
    if (!out.empty()) out += "\n";
    out += r.empty() ? "" : r[0];
  }
  return out;
}

}  // namespace engine::testing
