#include "engine/testing/script_compare.h"

#include <sqlite3.h>

#include <memory>
#include <string_view>

#include "engine/database.h"
#include "engine/statement.h"
#include "engine/testing/sqlite_oracle.h"

namespace engine::testing {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

// The length of the first statement of `s` (through its ';'), as sqlite3
// delimits statements (a trigger's body included); all of `s` when none ends.
size_t StatementLength(std::string_view s) {
  for (size_t i = s.find(';'); i != std::string_view::npos; i = s.find(';', i + 1)) {
    const std::string prefix(s.substr(0, i + 1));
    if (sqlite3_complete(prefix.c_str())) return i + 1;
  }
  return s.size();
}

}  // namespace

std::string EngineTranscript(const std::string& path, const std::string& script) {
  auto db = Database::Open(path);
  if (!db.ok()) return "open error: " + db.status().message() + "\n";
  std::string out;
  std::string_view rest = script;
  while (!Trim(rest).empty()) {
    size_t tail = 0;
    auto stmt = (*db)->Prepare(rest, &tail);
    if (!stmt.ok()) {
      // A failed prepare skips its statement.
      const size_t len = StatementLength(rest);
      std::string_view text = Trim(rest.substr(0, len));
      if (!text.empty() && text.back() == ';') text.remove_suffix(1);
      out += "> " + std::string(Trim(text)) + "\n";
      out += "error: " + stmt.status().message() + "\n";
      rest.remove_prefix(len);
      continue;
    }
    if (!*stmt) break;
    std::string_view text = Trim(rest.substr(0, tail));
    if (!text.empty() && text.back() == ';') text.remove_suffix(1);
    out += "> " + std::string(Trim(text)) + "\n";
    rest.remove_prefix(tail == 0 ? rest.size() : tail);
    for (;;) {
      auto r = (*stmt)->Step();
      if (!r.ok()) {
        out += "error: " + r.status().message() + "\n";
        break;
      }
      if (!*r) {
        out += "changes=" + std::to_string((*db)->changes()) +
               " last=" + std::to_string((*db)->last_insert_rowid()) + "\n";
        break;
      }
      std::string line;
      for (int i = 0; i < (*stmt)->column_count(); ++i) {
        if (i > 0) line += "|";
        line += (*stmt)->column_type(i) == ValueType::kNull ? std::string("NULL")
                                                            : std::string((*stmt)->column_text(i));
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string SqliteTranscript(const std::string& path, const std::string& script) {
  SqliteDb db(path);
  if (!db.ok()) return "open error: " + db.error() + "\n";
  std::string out;
  const char* rest = script.c_str();
  while (!Trim(rest).empty()) {
    sqlite3_stmt* st = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db.raw(), rest, -1, &st, &tail) != SQLITE_OK) {
      const size_t len = StatementLength(rest);
      std::string_view text = Trim(std::string_view(rest, len));
      if (!text.empty() && text.back() == ';') text.remove_suffix(1);
      out += "> " + std::string(Trim(text)) + "\n";
      out += std::string("error: ") + sqlite3_errmsg(db.raw()) + "\n";
      rest += len;
      continue;
    }
    if (st == nullptr) break;
    std::string_view text = Trim(std::string_view(rest, static_cast<size_t>(tail - rest)));
    if (!text.empty() && text.back() == ';') text.remove_suffix(1);
    out += "> " + std::string(Trim(text)) + "\n";
    rest = tail;
    for (;;) {
      const int rc = sqlite3_step(st);
      if (rc == SQLITE_ROW) {
        std::string line;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
          if (i > 0) line += "|";
          const unsigned char* t = sqlite3_column_text(st, i);
          line += t == nullptr ? "NULL" : reinterpret_cast<const char*>(t);
        }
        out += line + "\n";
        continue;
      }
      if (rc == SQLITE_DONE) {
        out += "changes=" + std::to_string(sqlite3_changes64(db.raw())) +
               " last=" + std::to_string(sqlite3_last_insert_rowid(db.raw())) + "\n";
      } else {
        out += std::string("error: ") + sqlite3_errmsg(db.raw()) + "\n";
      }
      break;
    }
    sqlite3_finalize(st);
  }
  return out;
}

std::string DumpTables(const std::string& path) {
  SqliteDb db(path, /*read_only=*/true);
  std::string out;
  for (const auto& t :
       db.Query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
    out += "table " + t[0] + "\n";
    for (const auto& row : db.Query("SELECT * FROM \"" + t[0] + "\" ORDER BY rowid")) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) line += (i > 0 ? "|" : "") + row[i];
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace engine::testing
