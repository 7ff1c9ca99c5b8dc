// INDEXED BY / NOT INDEXED and "x IN table", against sqlite3 on the same
// file: the same rows, the same plans, the same errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class IndexHintTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("h.db");
    testing::SqliteDb db(path_);
    ASSERT_TRUE(
        db.Exec("CREATE TABLE t(a INTEGER PRIMARY KEY, b, c); CREATE INDEX tb ON t(b);"
                "CREATE INDEX tc ON t(c); CREATE TABLE u(x); CREATE TABLE two(p, q);"
                "INSERT INTO t VALUES (1, 2, 3), (2, 3, 4), (3, NULL, 1), (4, 3, 9);"
                "INSERT INTO u VALUES (2), (3), (NULL), (9); INSERT INTO two VALUES (1, 2);"))
        << db.error();
  }

  // Rows in list mode, or "error: <message>"; plans as EXPLAIN QUERY PLAN's
  // detail column.
  V Engine(const std::string& sql, bool plan = false) {
    auto db = Database::Open(path_);
    if (!db.ok()) return {"error: " + db.status().message()};
    auto st = (*db)->Prepare(plan ? "EXPLAIN QUERY PLAN " + sql : sql);
    if (!st.ok()) return {"error: " + st.status().message()};
    V out;
    for (;;) {
      auto r = (*st)->Step();
      if (!r.ok()) return {"error: " + r.status().message()};
      if (!*r) break;
      std::string line;
      for (int i = plan ? 3 : 0; i < (*st)->column_count(); ++i) {
        if (!line.empty() || (!plan && i > 0)) line += "|";
        line += std::string((*st)->column_text(i));
      }
      out.push_back(line);
    }
    return out;
  }
  V Sqlite(const std::string& sql, bool plan = false) {
    testing::SqliteDb db(path_);
    sqlite3_stmt* st = nullptr;
    const std::string text = plan ? "EXPLAIN QUERY PLAN " + sql : sql;
    if (sqlite3_prepare_v2(db.raw(), text.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      return {std::string("error: ") + sqlite3_errmsg(db.raw())};
    }
    V out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      std::string line;
      for (int i = plan ? 3 : 0; i < sqlite3_column_count(st); ++i) {
        if (!line.empty() || (!plan && i > 0)) line += "|";
        const unsigned char* t = sqlite3_column_text(st, i);
        if (t != nullptr) line += reinterpret_cast<const char*>(t);
      }
      out.push_back(line);
    }
    if (rc != SQLITE_DONE) out = {std::string("error: ") + sqlite3_errmsg(db.raw())};
    sqlite3_finalize(st);
    return out;
  }
  void ExpectSame(const std::string& sql) {
    EXPECT_EQ(Engine(sql), Sqlite(sql)) << sql;
    EXPECT_EQ(Engine(sql, true), Sqlite(sql, true)) << sql;
  }

  testing::TempDir dir_;
  std::string path_;
};

TEST_F(IndexHintTest, IndexedByForcesTheIndex) {
  for (const char* sql :
       {"SELECT * FROM t INDEXED BY tb WHERE b = 3",
        "SELECT * FROM t INDEXED BY tc WHERE c > 1 AND b = 3",
        "SELECT * FROM t INDEXED BY tb WHERE b > 2",
        "SELECT * FROM t AS x INDEXED BY tb WHERE x.b = 2",
        "SELECT * FROM t INDEXED BY TB WHERE b = 2",
        // No usable term: the whole index is walked, in its order.
        "SELECT * FROM t INDEXED BY tb", "SELECT * FROM t INDEXED BY tb WHERE a = 1",
        "SELECT * FROM t INDEXED BY tb ORDER BY b", "SELECT a FROM t INDEXED BY tb WHERE c = 3",
        "SELECT b FROM t INDEXED BY tb",
        "SELECT t.a, u.x FROM u, t INDEXED BY tb WHERE t.b = u.x ORDER BY 1, 2"}) {
    ExpectSame(sql);
  }
}

TEST_F(IndexHintTest, NotIndexedLeavesTheRowid) {
  for (const char* sql :
       {"SELECT * FROM t NOT INDEXED WHERE b = 2", "SELECT * FROM t NOT INDEXED ORDER BY b",
        "SELECT * FROM t NOT INDEXED WHERE a = 1", "SELECT b FROM t NOT INDEXED"}) {
    ExpectSame(sql);
  }
}

TEST_F(IndexHintTest, ErrorsAreSqlites) {
  for (const char* sql :
       {"SELECT * FROM t INDEXED BY nosuch", "SELECT * FROM u INDEXED BY tb",
        "SELECT * FROM t INDEXED WHERE b = 2", "SELECT * FROM t INDEXED BY",
        "DELETE FROM t INDEXED BY nosuch WHERE b = 2", "UPDATE u INDEXED BY tb SET x = 1"}) {
    EXPECT_EQ(Engine(sql), Sqlite(sql)) << sql;
  }
  // "indexed" stays a name where it is not the clause.
  ExpectSame("SELECT indexed.b FROM t AS indexed WHERE indexed.a = 2");
}

TEST_F(IndexHintTest, DmlTakesTheHint) {
  const std::string data = path_;
  int n = 0;
  for (const char* sql :
       {"UPDATE t INDEXED BY tc SET c = 5 WHERE b = 2",
        "UPDATE t NOT INDEXED SET c = 6 WHERE b = 3", "DELETE FROM t INDEXED BY tb WHERE b = 3",
        "UPDATE t INDEXED BY tb SET c = c + 1"}) {
    // Each side changes its own copy of the data.
    const std::string mine = dir_.file("e" + std::to_string(n) + ".db");
    const std::string theirs = dir_.file("s" + std::to_string(n++) + ".db");
    std::filesystem::copy_file(data, mine);
    std::filesystem::copy_file(data, theirs);
    path_ = mine;
    EXPECT_EQ(Engine(sql), V{}) << sql;
    const V got = Engine("SELECT * FROM t ORDER BY a");
    path_ = theirs;
    EXPECT_EQ(Sqlite(sql), V{}) << sql;
    EXPECT_EQ(got, Sqlite("SELECT * FROM t ORDER BY a")) << sql;
  }
  path_ = data;
}

TEST_F(IndexHintTest, InATable) {
  for (const char* sql :
       {"SELECT a FROM t WHERE b IN u ORDER BY a", "SELECT a FROM t WHERE b NOT IN u",
        "SELECT a FROM t WHERE b IN main.u ORDER BY a",
        "SELECT b IN u, c NOT IN u FROM t ORDER BY a",
        "SELECT a FROM t WHERE b IN \"u\" ORDER BY a", "SELECT a FROM t WHERE b IN nosuch",
        "SELECT a FROM t WHERE b IN two", "SELECT a FROM t WHERE b IN t"}) {
    EXPECT_EQ(Engine(sql), Sqlite(sql)) << sql;
  }
}

}  // namespace
}  // namespace engine
