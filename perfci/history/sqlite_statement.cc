#include "perfci/history/sqlite_statement.h"

#include <sqlite3.h>

#include "perfci/util/error.h"

namespace perfci::history {

void exec_sql(sqlite3* db, const std::string& where, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw Error(where + ": " + why);
  }
}

Statement::Statement(sqlite3* db, const std::string& where, const char* sql)
    : db_(db), where_(where) {
  if (int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); rc != SQLITE_OK) fail(rc);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::fail(int rc) const {
  throw Error(where_ + ": " + sqlite3_errstr(rc) + " (" + sqlite3_errmsg(db_) + ")");
}

Statement& Statement::bind(int i, const std::string& text) {
  if (int rc =
          sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      rc != SQLITE_OK)
    fail(rc);
  return *this;
}

Statement& Statement::bind(int i, std::int64_t value) {
  if (int rc = sqlite3_bind_int64(stmt_, i, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int i, double value) {
  if (int rc = sqlite3_bind_double(stmt_, i, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int i, const std::optional<double>& value) {
  return value ? bind(i, *value) : bind_null(i);
}

Statement& Statement::bind_null(int i) {
  if (int rc = sqlite3_bind_null(stmt_, i); rc != SQLITE_OK) fail(rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc);
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
           : std::string();
}

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::optional<double> Statement::optional_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return real(column);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

}  // namespace perfci::history
