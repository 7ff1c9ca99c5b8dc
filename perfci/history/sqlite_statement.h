// A prepared SQLite statement and the few calls the results database makes,
// with every SQLite failure turned into perfci::Error "<db path>: <what>:
// <SQLite's message>". Internal to history/: no other stage talks to SQLite.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace perfci::history {

// Runs `sql` (any number of statements, no results read). Throws perfci::Error.
void exec_sql(sqlite3* db, const std::string& where, const std::string& sql);

class Statement {
 public:
  Statement(sqlite3* db, const std::string& where, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters count from 1, as in SQLite.
  Statement& bind(int i, const std::string& text);
  Statement& bind(int i, std::int64_t value);
  Statement& bind(int i, double value);
  Statement& bind(int i, const std::optional<double>& value);  // NULL when none
  Statement& bind_null(int i);

  // Steps once: true with a row to read, false when done. Throws on an error.
  bool step();
  // step() for a statement that returns no row.
  void run();
  void reset();

  std::string text(int column) const;  // "" for NULL
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::optional<double> optional_real(int column) const;
  bool is_null(int column) const;

 private:
  [[noreturn]] void fail(int rc) const;
  sqlite3* db_;
  std::string where_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace perfci::history
