// The real SQLite as a test oracle: run SQL, fetch rows as text, check
// integrity. Used by the interop, crash and SQL differential tests.
#pragma once

#include <sqlite3.h>

#include <string>
#include <vector>

namespace engine::testing {

class SqliteDb {
 public:
  explicit SqliteDb(const std::string& path, bool read_only = false);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  bool ok() const { return db_ != nullptr; }
  const std::string& error() const { return error_; }
  // Runs one or more statements; false (and error()) on failure.
  bool Exec(const std::string& sql);
  // Rows of the first statement, each value as text ("NULL" for NULL, blobs
  // as hex, reals with %.17g so no digits are lost).
  std::vector<std::vector<std::string>> Query(const std::string& sql);
  // PRAGMA integrity_check joined into one string ("ok" when sound).
  std::string IntegrityCheck();
  sqlite3* raw() { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string error_;
};

}  // namespace engine::testing
