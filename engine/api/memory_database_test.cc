// In-memory and temporary databases and URI filenames, as sqlite3_open_v2
// has them: ":memory:" and "" are private to their connection, leave no
// file behind and still roll back; "file:" URIs open what sqlite3 opens and
// fail where it fails, with its messages (the real sqlite3 is asked).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

namespace fs = std::filesystem;

// Names in `dir`, sorted: what a test expects to stay empty, or to hold
// exactly the files it made.
std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Runs the test in a fresh, empty working directory, with TMPDIR pointing
// at another fresh one: relative names land in the first, the temporary
// files of a "" database (and statement journals) in the second, and both
// can be listed.
class MemoryDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    old_cwd_ = fs::current_path();
    fs::current_path(cwd_.path());
    if (const char* t = getenv("TMPDIR")) old_tmpdir_ = t;
    setenv("TMPDIR", tmp_.path().c_str(), 1);
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    if (old_tmpdir_) {
      setenv("TMPDIR", old_tmpdir_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

  static std::unique_ptr<Database> Open(const std::string& path, DatabaseOptions o = {}) {
    auto db = Database::Open(path, o);
    EXPECT_TRUE(db.ok()) << path << ": " << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }
  static DatabaseOptions Uri() {
    DatabaseOptions o;
    o.uri = true;
    return o;
  }
  // The error Database::Open gives, "" when it opened.
  static std::string OpenError(const std::string& path, DatabaseOptions o) {
    auto db = Database::Open(path, o);
    return db.ok() ? "" : db.status().message();
  }

  static void Exec(Database& db, const std::string& sql) {
    Status st = db.Exec(sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }
  static std::string Error(Database& db, const std::string& sql) {
    Status st = db.Exec(sql);
    return st.ok() ? "" : st.message();
  }
  // The rows of `sql` as "a|b" lines joined by '\n'.
  static std::string Query(Database& db, const std::string& sql) {
    auto stmt = db.Prepare(sql);
    if (!stmt.ok()) return "error: " + stmt.status().message();
    std::string out;
    for (;;) {
      auto r = (*stmt)->Step();
      if (!r.ok()) return out + "error: " + r.status().message();
      if (!*r) break;
      if (!out.empty()) out += "\n";
      for (int i = 0; i < (*stmt)->column_count(); ++i) {
        if (i > 0) out += "|";
        out += std::string((*stmt)->column_text(i));
      }
    }
    return out;
  }

  bool CwdEmpty() const { return List(cwd_.path()).empty(); }
  bool TmpEmpty() const { return List(tmp_.path()).empty(); }

  testing::TempDir cwd_;
  testing::TempDir tmp_;

 private:
  fs::path old_cwd_;
  std::optional<std::string> old_tmpdir_;
};

// Every way of naming a private in-memory database, with and without URIs.
std::vector<std::pair<std::string, DatabaseOptions>> MemoryNames() {
  DatabaseOptions uri;
  uri.uri = true;
  return {{":memory:", {}},
          {":memory:", uri},
          {"file::memory:", uri},
          {"file:x?mode=memory", uri},
          {"file:data.db?mode=memory&cache=private", uri}};
}

TEST_F(MemoryDatabaseTest, InMemoryDatabasesCreateNoFile) {
  for (const auto& [name, opts] : MemoryNames()) {
    auto db = Open(name, opts);
    ASSERT_NE(db, nullptr) << name;
    Exec(*db, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT UNIQUE)");
    // Enough rows that the transaction journals, spills and commits pages.
    Exec(*db,
         "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000)"
         " INSERT INTO t SELECT i, printf('row %05d', i) FROM c; COMMIT");
    Exec(*db, "BEGIN; DELETE FROM t WHERE a > 100; ROLLBACK");
    EXPECT_EQ(Query(*db, "SELECT count(*) FROM t"), "3000") << name;
    EXPECT_EQ(Query(*db, "PRAGMA journal_mode"), "memory") << name;
    EXPECT_TRUE(CwdEmpty()) << name << " while open";
    db.reset();
    EXPECT_TRUE(CwdEmpty()) << name << " after close";
    EXPECT_TRUE(TmpEmpty()) << name;
  }
}

TEST_F(MemoryDatabaseTest, DataIsGoneOnCloseAndTwoConnectionsSeeTwoDatabases) {
  for (const auto& [name, opts] : MemoryNames()) {
    auto a = Open(name, opts);
    auto b = Open(name, opts);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    Exec(*a, "CREATE TABLE t(x); INSERT INTO t VALUES ('from a')");
    EXPECT_EQ(Error(*b, "SELECT * FROM t"), "no such table: t") << name;
    Exec(*b, "CREATE TABLE t(x); INSERT INTO t VALUES ('from b'), ('b again')");
    EXPECT_EQ(Query(*a, "SELECT x FROM t"), "from a") << name;
    EXPECT_EQ(Query(*b, "SELECT x FROM t"), "from b\nb again") << name;
    a.reset();
    auto again = Open(name, opts);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(Query(*again, "SELECT count(*) FROM sqlite_schema"), "0") << name;
    EXPECT_EQ(Query(*b, "SELECT count(*) FROM t"), "2") << name;
  }
}

// BEGIN ... ROLLBACK, the undo of one failing statement inside a
// transaction, OR ROLLBACK, and a DDL rollback, all against the journal the
// in-memory database keeps in memory.
TEST_F(MemoryDatabaseTest, RollbackAndStatementUndoWork) {
  auto db = Open(":memory:");
  ASSERT_NE(db, nullptr);
  Exec(*db, "CREATE TABLE t(k INTEGER UNIQUE, v TEXT); INSERT INTO t VALUES (1, 'one')");

  Exec(*db, "BEGIN; INSERT INTO t VALUES (2, 'two'); UPDATE t SET v = 'changed'");
  EXPECT_EQ(Query(*db, "SELECT k, v FROM t ORDER BY k"), "1|changed\n2|changed");
  Exec(*db, "ROLLBACK");
  EXPECT_EQ(Query(*db, "SELECT k, v FROM t ORDER BY k"), "1|one");

  Exec(*db, "BEGIN; INSERT INTO t VALUES (3, 'three')");
  // The second row of this statement fails: its first row goes too, the
  // statement before it stays.
  EXPECT_EQ(Error(*db, "INSERT INTO t VALUES (4, 'four'), (1, 'dup')"),
            "UNIQUE constraint failed: t.k");
  EXPECT_TRUE(db->in_transaction());
  Exec(*db, "COMMIT");
  EXPECT_EQ(Query(*db, "SELECT k FROM t ORDER BY k"), "1\n3");

  Exec(*db, "BEGIN; INSERT INTO t VALUES (5, 'five')");
  EXPECT_EQ(Error(*db, "INSERT OR ROLLBACK INTO t VALUES (1, 'dup')"),
            "UNIQUE constraint failed: t.k");
  EXPECT_FALSE(db->in_transaction());
  EXPECT_EQ(Query(*db, "SELECT k FROM t ORDER BY k"), "1\n3");

  Exec(*db, "BEGIN; CREATE TABLE u(x); INSERT INTO u VALUES (1); DROP TABLE t; ROLLBACK");
  EXPECT_EQ(Query(*db, "SELECT name FROM sqlite_schema WHERE type = 'table'"), "t");
  EXPECT_EQ(Error(*db, "SELECT * FROM u"), "no such table: u");
  EXPECT_EQ(Query(*db, "PRAGMA integrity_check"), "ok");
}

// Far more pages than the cache holds: the pager evicts to the in-memory
// file and reads back from it, a rollback of a large transaction plays a
// large in-memory journal, and the statement journal spills (to memory).
TEST_F(MemoryDatabaseTest, LargeDatabaseBeyondTheCache) {
  DatabaseOptions small;
  small.cache_pages = 16;
  auto db = Open(":memory:", small);
  ASSERT_NE(db, nullptr);
  Exec(*db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, w INTEGER); CREATE INDEX tw ON t(w)");
  Exec(*db,
       "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000)"
       " INSERT INTO t SELECT i, printf('value %06d', i), (i * 7919) % 100003 FROM c; COMMIT");
  const std::string stats = "SELECT count(*), sum(id), sum(w), sum(length(v)) FROM t";
  const std::string committed = Query(*db, stats);
  EXPECT_EQ(committed.substr(0, committed.find('|', 7)), "100000|5000050000");
  const std::string pages = Query(*db, "PRAGMA page_count");
  EXPECT_GT(std::stoi(pages), 500) << pages;  // 30 times what the cache holds
  EXPECT_EQ(Query(*db, "PRAGMA page_size"), "4096");
  EXPECT_EQ(Query(*db, "PRAGMA integrity_check"), "ok");

  Exec(*db,
       "BEGIN; UPDATE t SET v = v || ' and more text', w = -w; DELETE FROM t WHERE id % 3 = 0");
  const std::string before = Query(*db, stats);
  EXPECT_EQ(before.substr(0, before.find('|')), "66667");
  // A statement that changes every row and the index, then fails on the
  // last row: undone alone, from a statement journal far larger than its
  // in-memory part.
  EXPECT_EQ(Error(*db, "UPDATE t SET w = w - 1, id = CASE WHEN id = 100000 THEN 1 ELSE id END"),
            "UNIQUE constraint failed: t.id");
  EXPECT_EQ(Query(*db, stats), before);
  Exec(*db, "ROLLBACK");
  EXPECT_EQ(Query(*db, stats), committed);
  EXPECT_EQ(Query(*db, "PRAGMA page_count"), pages);
  EXPECT_EQ(Query(*db, "PRAGMA integrity_check"), "ok");
  EXPECT_TRUE(CwdEmpty());
  EXPECT_TRUE(TmpEmpty());
}

TEST_F(MemoryDatabaseTest, PragmasAnswerAsSqlite3Does) {
  auto db = Open(":memory:");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Query(*db, "PRAGMA journal_mode"), "memory");
  // sqlite3 keeps an in-memory database's journal in memory whatever the
  // mode asked for (OFF aside), and answers so.
  EXPECT_EQ(Query(*db, "PRAGMA journal_mode = delete"), "memory");
  EXPECT_EQ(Query(*db, "PRAGMA journal_mode = wal"), "memory");
  EXPECT_EQ(Query(*db, "PRAGMA journal_mode = MEMORY"), "memory");
  EXPECT_EQ(Error(*db, "PRAGMA journal_mode = off"), "journal_mode off is not supported");
  EXPECT_EQ(Query(*db, "PRAGMA database_list"), "0|main|");
  Exec(*db, "CREATE TABLE t(a)");
  EXPECT_EQ(Query(*db, "PRAGMA page_count"), "2");

  auto temp = Open("");
  ASSERT_NE(temp, nullptr);
  EXPECT_EQ(Query(*temp, "PRAGMA journal_mode"), "delete");
  EXPECT_EQ(Query(*temp, "PRAGMA database_list"), "0|main|");
}

// "": a private temporary database in an unnamed file of the temporary
// folder. Nothing shows in the folder while it is open or after.
TEST_F(MemoryDatabaseTest, TemporaryDatabaseLeavesNoFile) {
  DatabaseOptions small;
  small.cache_pages = 16;
  for (const auto& [name, opts] :
       std::vector<std::pair<std::string, DatabaseOptions>>{{"", small}, {"file:", Uri()}}) {
    auto a = Open(name, opts);
    auto b = Open(name, opts);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    Exec(*a, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    Exec(*a,
         "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)"
         " INSERT INTO t SELECT i, printf('v%d', i) FROM c; COMMIT");
    Exec(*a, "BEGIN; DELETE FROM t WHERE id > 10; ROLLBACK");
    EXPECT_EQ(Query(*a, "SELECT count(*), sum(id) FROM t"), "20000|200010000") << name;
    EXPECT_EQ(Query(*a, "PRAGMA integrity_check"), "ok") << name;
    EXPECT_EQ(Error(*b, "SELECT * FROM t"), "no such table: t") << name;
    EXPECT_TRUE(TmpEmpty()) << name << " while open";
    EXPECT_TRUE(CwdEmpty()) << name << " while open";
    a.reset();
    b.reset();
    auto again = Open(name, opts);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(Query(*again, "SELECT count(*) FROM sqlite_schema"), "0") << name;
    again.reset();
    EXPECT_TRUE(TmpEmpty()) << name;
    EXPECT_TRUE(CwdEmpty()) << name;
  }
}

TEST_F(MemoryDatabaseTest, ReadOnlyInMemoryDatabaseRefusesWrites) {
  DatabaseOptions ro;
  ro.read_only = true;
  for (const auto& [name, opts] : std::vector<std::pair<std::string, DatabaseOptions>>{
           {"file::memory:?mode=ro", Uri()}, {":memory:", ro}, {"", ro}}) {
    auto db = Open(name, opts);
    ASSERT_NE(db, nullptr) << name;
    EXPECT_EQ(Query(*db, "SELECT count(*) FROM sqlite_schema"), "0") << name;
    EXPECT_EQ(Error(*db, "CREATE TABLE t(a)"), "attempt to write a readonly database") << name;
  }
  EXPECT_TRUE(CwdEmpty());
}

// Without DatabaseOptions::uri a "file:" name is a file's name, as in
// sqlite3_open_v2 without SQLITE_OPEN_URI.
TEST_F(MemoryDatabaseTest, UrisNeedTheOption) {
  auto db = Open("file:x.db?mode=memory");
  ASSERT_NE(db, nullptr);
  Exec(*db, "CREATE TABLE t(a)");
  db.reset();
  EXPECT_EQ(List(cwd_.path()), std::vector<std::string>{"file:x.db?mode=memory"});
}

TEST_F(MemoryDatabaseTest, FileUrisOpenWhatSqlite3Opens) {
  {
    auto db = Open("file:a%20b.db?mode=rwc&foo=bar#fragment", Uri());
    ASSERT_NE(db, nullptr);
    Exec(*db, "CREATE TABLE t(a); INSERT INTO t VALUES (42)");
  }
  EXPECT_EQ(List(cwd_.path()), std::vector<std::string>{"a b.db"});
  const std::string abs = cwd_.file("a b.db");
  for (const std::string& uri : std::vector<std::string>{
           "file:a%20b.db", "file:a%20b.db?mode=rw", "file:a%2%20b.db?%00x=1&mode=rwc",
           "file:///" + abs.substr(1), "file://localhost" + abs, "file:" + abs + "?cache=shared",
           "file:a%20b.db?mode=ro&vfs=unix"}) {
    auto db = Open(uri, Uri());
    ASSERT_NE(db, nullptr) << uri;
    EXPECT_EQ(Query(*db, "SELECT a FROM t"),
              uri.find("a%2%20b") == std::string::npos ? "42" : "error: no such table: t")
        << uri;
  }
  // An invalid escape stays as it is: that one named another file.
  EXPECT_EQ(List(cwd_.path()), (std::vector<std::string>{"a b.db", "a%2 b.db"}));

  auto ro = Open("file:a%20b.db?mode=ro", Uri());
  ASSERT_NE(ro, nullptr);
  EXPECT_EQ(Query(*ro, "SELECT a FROM t"), "42");
  EXPECT_EQ(Error(*ro, "INSERT INTO t VALUES (1)"), "attempt to write a readonly database");
  EXPECT_EQ(Query(*ro, "SELECT count(*) FROM t"), "1");
}

// Each refused name, opened by the engine and by sqlite3_open_v2 with the
// same flags (SQLITE_OPEN_URI included): the same message, and neither
// leaves a file.
TEST_F(MemoryDatabaseTest, BadUrisFailAsInSqlite3) {
  struct Case {
    std::string name;
    bool read_only;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"file:missing.db?mode=rw", false, "unable to open database file"},
      {"file:missing.db?mode=ro", false, "unable to open database file"},
      {"file:x.db?mode=xx", false, "no such access mode: xx"},
      {"file:x.db?mode=RO", false, "no such access mode: RO"},
      {"file:x.db?mode=", false, "no such access mode: "},
      {"file:x.db?mode=r%00w", false, "no such access mode: r"},
      {"file:x.db?mode", false, "no such access mode: "},
      {"file:x.db?mode=rw", true, "access mode not allowed: rw"},
      {"file:x.db?mode=ro&mode=rwc", false, "access mode not allowed: rwc"},
      {"file:x.db?cache=none", false, "no such cache mode: none"},
      {"file:x.db?vfs=nosuch", false, "no such vfs: nosuch"},
      {"file://otherhost/tmp/x.db", false, "invalid uri authority: otherhost"},
      {"nodir/x.db", false, "unable to open database file"},
  };
  for (const Case& c : cases) {
    DatabaseOptions o = Uri();
    o.read_only = c.read_only;
    EXPECT_EQ(OpenError(c.name, o), c.message) << c.name;
    sqlite3* raw = nullptr;
    const int flags = SQLITE_OPEN_URI | (c.read_only ? SQLITE_OPEN_READONLY
                                                     : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    EXPECT_NE(sqlite3_open_v2(c.name.c_str(), &raw, flags, nullptr), SQLITE_OK) << c.name;
    EXPECT_EQ(std::string(sqlite3_errmsg(raw)), c.message) << c.name << " (sqlite3)";
    sqlite3_close(raw);
    EXPECT_TRUE(CwdEmpty()) << c.name;
  }
  // Refused by the engine, not by sqlite3: connections that would share one
  // in-memory database, and VFSes it does not have.
  EXPECT_EQ(OpenError("file:x?mode=memory&cache=shared", Uri()),
            "shared-cache in-memory databases are not supported: each connection has its own");
  EXPECT_EQ(OpenError("file:x.db?vfs=unix-dotfile", Uri()), "vfs unix-dotfile is not supported");
  EXPECT_TRUE(CwdEmpty());
}

}  // namespace
}  // namespace engine
