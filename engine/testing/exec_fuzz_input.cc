#include "engine/testing/exec_fuzz_input.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "engine/database.h"
#include "engine/sql/tokenizer.h"

namespace engine::testing {
namespace {

// Also bounds the tables a script can build from VALUES lists (~190 rows).
constexpr size_t kMaxInput = 768;
constexpr int kMaxStatements = 8;
constexpr int kMaxRowsPerStatement = 2000;
// Nested loops cost rows^sources: 3 sources over a 190-row table built from
// VALUES are ~7M row combinations, seconds under ASan; over t1, 27K.
constexpr int kMaxSources = 3;
// A script stops once the file has grown this much.
constexpr uintmax_t kMaxGrowthBytes = uintmax_t{256} << 10;

// The schema of ../shared/slt (t1) with its seed rows' shape, plus a table
// with every constraint the DML checks, an index on each, and a view.
constexpr const char* kSetup =
    "CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER);"
    "CREATE INDEX t1b ON t1(b, c);"
    "CREATE TABLE t2(id INTEGER PRIMARY KEY, k TEXT UNIQUE, v REAL NOT NULL, w BLOB, x);"
    "CREATE INDEX t2vx ON t2(v DESC, x);"
    "CREATE TABLE t3(p, q, r, PRIMARY KEY(p, q));"
    "CREATE VIEW v1 AS SELECT a, b + c AS s FROM t1 WHERE d > 110;";

std::string SetupSql() {
  std::string sql = kSetup;
  for (int i = 0; i < 30; ++i) {
    const int base = 100 + 5 * i;
    sql += "INSERT INTO t1 VALUES(" + std::to_string(base + (i * 3) % 5) + "," +
           std::to_string(base + (i * 7 + 1) % 5) + "," +
           (i % 7 == 3 ? std::string("NULL") : std::to_string(base + 2)) + "," +
           std::to_string(base + (i * 2 + 3) % 5) + "," + std::to_string(base + 4) + ");";
  }
  for (int i = 0; i < 20; ++i) {
    sql += "INSERT INTO t2 VALUES(" + std::to_string(i * 3) + ",'k" + std::to_string(i) + "'," +
           std::to_string(i * 0.5) + ",x'" + std::string(static_cast<size_t>(i % 4) * 2, 'a') +
           "'," +
           (i % 3 == 0 ? std::string("NULL")
                       : "'" + std::string(static_cast<size_t>(i) * 40, 'z') + "'") +
           ");";
  }
  for (int i = 0; i < 10; ++i) {
    sql += "INSERT INTO t3 VALUES(" + std::to_string(i % 4) + ",'" + std::to_string(i) + "'," +
           std::to_string(i * 1.25) + ");";
  }
  return sql;
}

std::string Directory() {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec)) return "/dev/shm";
  return std::filesystem::temp_directory_path(ec).string();
}

}  // namespace

ExecFuzzInput::ExecFuzzInput() {
  const std::string stem = Directory() + "/engine-exec-fuzz-" + std::to_string(getpid());
  db_ = stem + ".db";
  journal_ = db_ + "-journal";
  std::error_code ec;
  std::filesystem::remove(db_, ec);
  std::filesystem::remove(journal_, ec);
  {
    auto opened = Database::Open(db_);
    if (!opened.ok() || !(*opened)->Exec(SetupSql()).ok()) {
      std::fprintf(stderr, "cannot set up %s\n", db_.c_str());
      std::abort();
    }
  }
  std::ifstream in(db_, std::ios::binary);
  template_bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

ExecFuzzInput::~ExecFuzzInput() {
  std::error_code ec;
  std::filesystem::remove(db_, ec);
  std::filesystem::remove(journal_, ec);
}

void ExecFuzzInput::Reset() const {
  std::error_code ec;
  std::filesystem::remove(journal_, ec);
  std::ofstream(db_, std::ios::binary | std::ios::trunc) << template_bytes_;
}

// Inputs whose cost the row and statement bounds cannot cap are skipped.
// Nested loops cost rows^sources, and a script can grow its own tables
// (INSERT ... SELECT, long VALUES lists), so the number of row sources in
// the whole script is bounded: FROM items (a ',' or JOIN after FROM adds
// one) and UPDATE / DELETE targets. Huge sizes handed to the functions that
// allocate what they are asked for are refused too (zeroblob(1e9) is legal
// SQL; allocating a gigabyte for it is not a bug).
bool ExecFuzzInput::Accept(std::string_view sql) {
  if (sql.size() > kMaxInput) return false;
  using engine::sql::TokenKind;
  engine::sql::Tokenizer tok(sql);
  int sources = 0;
  std::vector<bool> in_from = {false};  // per parenthesis depth: inside a FROM clause
  bool sizing_function = false;
  bool big_number = false;
  for (;;) {
    const engine::sql::Token t = tok.Next();
    if (t.kind == TokenKind::kEof) break;
    switch (t.kind) {
      case TokenKind::kLParen:
        in_from.push_back(false);
        break;
      case TokenKind::kRParen:
        if (in_from.size() > 1) in_from.pop_back();
        break;
      case TokenKind::kFrom:
        in_from.back() = true;
        ++sources;
        break;
      case TokenKind::kUpdate:
        ++sources;
        break;
      case TokenKind::kComma:
      case TokenKind::kJoin:
        if (in_from.back()) ++sources;
        break;
      case TokenKind::kWhere:
      case TokenKind::kGroup:
      case TokenKind::kOrder:
      case TokenKind::kLimit:
      case TokenKind::kHaving:
      case TokenKind::kUnion:
      case TokenKind::kExcept:
      case TokenKind::kIntersect:
      case TokenKind::kSemicolon:
        in_from.back() = false;
        break;
      case TokenKind::kInteger:
      case TokenKind::kFloat:
        big_number |= t.length > 5;
        break;
      case TokenKind::kIdentifier: {
        std::string lower;
        for (char c : t.text(sql)) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
        sizing_function |= lower == "zeroblob" || lower == "randomblob" || lower == "printf" ||
                           lower == "format" || lower == "char" || lower == "replace";
        if (lower == "v1") ++sources;  // a view is a source over a source
        break;
      }
      default:
        break;
    }
  }
  return sources <= kMaxSources && !(sizing_function && big_number);
}

namespace {

// "" when sqlite3 finds the file sound.
std::string IntegrityProblems(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::string msg = std::string("sqlite3 cannot open the engine's file: ") + sqlite3_errmsg(db);
    sqlite3_close(db);
    return msg;
  }
  sqlite3_stmt* st = nullptr;
  std::string result;
  if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* t = sqlite3_column_text(st, 0);
      result += t != nullptr ? reinterpret_cast<const char*>(t) : "(null)";
      result += "\n";
    }
  } else {
    result = std::string("cannot check: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return result == "ok\n" ? "" : "integrity_check after the input:\n" + result;
}

}  // namespace

std::string ExecFuzzInput::Run(std::string_view sql) {
  Reset();
  {
    DatabaseOptions options;
    options.synchronous = Synchronous::kOff;  // nothing here must survive a crash
    options.cache_pages = 16;                 // the smallest cache: spills happen on small inputs
    auto opened = Database::Open(db_, options);
    if (!opened.ok()) return "cannot open the copy: " + opened.status().ToString();
    Database& db = **opened;
    size_t pos = 0;
    for (int n = 0; n < kMaxStatements && pos < sql.size(); ++n) {
      std::error_code ec;
      if (std::filesystem::file_size(db_, ec) > template_bytes_.size() + kMaxGrowthBytes) break;
      size_t tail = 0;
      auto stmt = db.Prepare(sql.substr(pos), &tail);
      if (!stmt.ok()) {
        // Every error explains itself, and points inside the text it names.
        if (stmt.status().message().empty()) return "an error without a message";
        if (stmt.status().offset() > static_cast<int>(sql.size() - pos)) {
          return "error offset past the text: " + stmt.status().message();
        }
        break;
      }
      if (!*stmt) break;
      Statement& s = **stmt;
      // Every index is in range (1..parameter_count): the binds cannot fail.
      for (int i = 0; i < s.parameter_count(); ++i) (void)s.BindInt(i + 1, i);
      for (int rows = 0; rows < kMaxRowsPerStatement; ++rows) {
        auto r = s.Step();
        if (!r.ok()) {
          if (r.status().message().empty()) return "an error without a message";
          break;
        }
        if (!*r) break;
        for (int c = 0; c < s.column_count(); ++c) {
          (void)s.column_text(c);  // every value must render
          (void)s.column_type(c);
        }
      }
      if (tail == 0) break;
      pos += tail;
    }
  }  // closing rolls back a transaction left open
  return IntegrityProblems(db_);
}

}  // namespace engine::testing
