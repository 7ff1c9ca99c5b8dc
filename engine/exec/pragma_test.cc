// PRAGMAs against the real sqlite3 on the same file: the same rows for the
// pragmas the engine implements, an error (never a silent nothing) for the
// ones it does not, and integrity_check's report on files damaged on purpose
// — the engine must find what sqlite3 finds, in sqlite3's words.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/storage/btree_page.h"
#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"
#include "engine/util/coding.h"
#include "engine/util/varint.h"

namespace engine {
namespace {

using testing::SqliteDb;

// Rows as "a|b|c", sqlite3's list mode; a failed prepare as "error:
// <message>"; a failed step adds "error (step)" after the rows before it
// (the messages of corruption errors differ between the two).
std::vector<std::string> EngineRows(const std::string& path, const std::string& sql) {
  auto db = Database::Open(path);
  if (!db.ok()) return {"error: " + db.status().message()};
  auto stmt = (*db)->Prepare(sql);
  if (!stmt.ok()) return {"error: " + stmt.status().message()};
  std::vector<std::string> out;
  for (;;) {
    auto r = (*stmt)->Step();
    if (!r.ok()) {
      out.push_back("error (step)");
      break;
    }
    if (!*r) break;
    std::string line;
    for (int i = 0; i < (*stmt)->column_count(); ++i) {
      if (i > 0) line += "|";
      line += std::string((*stmt)->column_text(i));
    }
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> SqliteRows(const std::string& path, const std::string& sql) {
  SqliteDb db(path);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db.raw(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    return {std::string("error: ") + sqlite3_errmsg(db.raw())};
  }
  std::vector<std::string> out;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::string line;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      if (i > 0) line += "|";
      const unsigned char* t = sqlite3_column_text(st, i);
      if (t != nullptr) line += reinterpret_cast<const char*>(t);
    }
    out.push_back(line);
  }
  if (rc != SQLITE_DONE) out.push_back("error (step)");
  sqlite3_finalize(st);
  return out;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

class PragmaTest : public ::testing::Test {
 protected:
  void SetUp() override { path_ = dir_.file("t.db"); }

  void Sqlite(const std::string& sql) {
    SqliteDb db(path_);
    ASSERT_TRUE(db.Exec(sql)) << db.error();
  }

  void ExpectSame(const std::string& sql) {
    EXPECT_EQ(EngineRows(path_, sql), SqliteRows(path_, sql)) << sql;
  }

  uint32_t Root(const std::string& name) {
    auto rows = SqliteRows(path_, "SELECT rootpage FROM sqlite_schema WHERE name = '" + name + "'");
    return rows.empty() ? 0 : static_cast<uint32_t>(std::stoul(rows[0]));
  }

  testing::TempDir dir_;
  std::string path_;
};

TEST_F(PragmaTest, SchemaPragmasAnswerAsSqlite) {
  Sqlite(
      "CREATE TABLE t(a INTEGER PRIMARY KEY, b text NOT NULL DEFAULT 'x', c, d REAL UNIQUE,"
      "               e DEFAULT (1 + 2), f DEFAULT -5, g varchar( 10 ) DEFAULT x'ab');"
      "CREATE INDEX tb ON t(b, c DESC);"
      "CREATE UNIQUE INDEX tc ON t(c);"
      "CREATE TABLE u(p, q, PRIMARY KEY(q, p));"
      "CREATE TABLE s(x TEXT PRIMARY KEY, y UNIQUE COLLATE NOCASE, UNIQUE(x, y COLLATE RTRIM));"
      "CREATE INDEX sy ON s(y DESC, x COLLATE NOCASE);"
      "INSERT INTO t(a, b, c, d) VALUES (1, 'a', 2, 3.5), (2, 'b', NULL, 4);");
  for (const char* sql : {"PRAGMA table_info(t)",
                          "PRAGMA table_info('u')",
                          "PRAGMA table_info = s",
                          "PRAGMA main.table_info(t)",
                          "PRAGMA TABLE_INFO(T)",
                          "PRAGMA table_xinfo(t)",
                          "PRAGMA table_info(sqlite_master)",
                          "PRAGMA table_info(nosuch)",
                          "PRAGMA table_info",
                          "PRAGMA index_list(t)",
                          "PRAGMA index_list(u)",
                          "PRAGMA index_list(s)",
                          "PRAGMA index_list(nosuch)",
                          "PRAGMA index_info(tb)",
                          "PRAGMA index_info(sqlite_autoindex_u_1)",
                          "PRAGMA index_info(sqlite_autoindex_s_3)",
                          "PRAGMA index_info(nosuch)",
                          "PRAGMA index_xinfo(tb)",
                          "PRAGMA index_xinfo(sy)",
                          "PRAGMA index_xinfo(sqlite_autoindex_s_2)",
                          "PRAGMA index_xinfo(sqlite_autoindex_s_3)",
                          "PRAGMA index_xinfo(nosuch)",
                          "PRAGMA database_list"}) {
    ExpectSame(sql);
  }
}

TEST(SchemaVersionTest, MovesOncePerStatementAsSqlite3) {
  // One step per DDL statement, however many sqlite_schema rows it writes
  // (a table and its automatic indexes; a DROP with its indexes and
  // triggers), none for one that changes nothing; in temp too.
  testing::ExpectLikeSqlite(R"(
    CREATE TABLE t(a, b UNIQUE, c PRIMARY KEY);
    PRAGMA schema_version;
    CREATE INDEX ta ON t(a);
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
    CREATE VIEW v AS SELECT 1;
    PRAGMA schema_version;
    DROP TABLE t;
    PRAGMA schema_version;
    CREATE TABLE IF NOT EXISTS v2(x);
    CREATE TABLE IF NOT EXISTS v2(x);
    DROP VIEW v;
    REINDEX;
    PRAGMA schema_version;
    BEGIN;
    CREATE TABLE u(x UNIQUE);
    CREATE TABLE w(y);
    COMMIT;
    PRAGMA schema_version;
    CREATE TEMP TABLE tt(x UNIQUE, y UNIQUE);
    PRAGMA temp.schema_version;
    DROP TABLE tt;
    PRAGMA temp.schema_version;
    PRAGMA schema_version;
  )");
}

TEST_F(PragmaTest, FilePragmasAnswerAsSqlite) {
  Sqlite(
      "PRAGMA page_size = 1024; PRAGMA user_version = 7; PRAGMA application_id = -3;"
      "CREATE TABLE t(a, b); CREATE TABLE z(x);"
      "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200)"
      "  INSERT INTO t SELECT i, randomblob(40) FROM r;"
      "DELETE FROM t WHERE a > 100; DROP TABLE z;");
  for (const char* sql :
       {"PRAGMA page_size", "PRAGMA page_count", "PRAGMA freelist_count", "PRAGMA schema_version",
        "PRAGMA user_version", "PRAGMA application_id", "PRAGMA encoding", "PRAGMA journal_mode",
        "PRAGMA journal_mode = DELETE", "PRAGMA journal_mode = nonsense", "PRAGMA main.page_size",
        "PRAGMA page_size = 1024", "PRAGMA integrity_check", "PRAGMA quick_check",
        "PRAGMA integrity_check(t)", "PRAGMA integrity_check(3)", "PRAGMA integrity_check(0)",
        // Not pragmas at all: no-ops in sqlite3 too.
        "PRAGMA no_such_pragma", "PRAGMA no_such_pragma = 1", "PRAGMA x.page_size",
        "PRAGMA integrity_check(nosuch)"}) {
    ExpectSame(sql);
  }
}

TEST_F(PragmaTest, UnsupportedPragmasFailRatherThanAnswerNothing) {
  Sqlite("CREATE TABLE t(a)");
  for (const char* sql : {"PRAGMA cache_size", "PRAGMA foreign_keys", "PRAGMA synchronous = OFF",
                          "PRAGMA journal_mode = WAL", "PRAGMA journal_mode = MEMORY",
                          "PRAGMA page_size = 8192", "PRAGMA user_version = 3"}) {
    const std::vector<std::string> rows = EngineRows(path_, sql);
    ASSERT_EQ(rows.size(), 1u) << sql;
    EXPECT_EQ(rows[0].rfind("error", 0), 0u) << sql << " gave " << rows[0];
  }
  EXPECT_EQ(EngineRows(path_, "PRAGMA cache_size"),
            std::vector<std::string>{"error: PRAGMA cache_size is not supported"});
  // The file is as it was: nothing was half-applied.
  EXPECT_EQ(SqliteRows(path_, "PRAGMA journal_mode"), std::vector<std::string>{"delete"});
  EXPECT_EQ(SqliteRows(path_, "PRAGMA user_version"), std::vector<std::string>{"0"});
}

TEST_F(PragmaTest, ColumnNamesAreSqlites) {
  Sqlite("CREATE TABLE t(a)");
  auto db = Database::Open(path_);
  ASSERT_TRUE(db.ok());
  auto stmt = (*db)->Prepare("PRAGMA index_list(t)");
  ASSERT_TRUE(stmt.ok());
  std::vector<std::string> names;
  for (int i = 0; i < (*stmt)->column_count(); ++i) names.push_back((*stmt)->column_name(i));
  EXPECT_EQ(names, (std::vector<std::string>{"seq", "name", "unique", "origin", "partial"}));
  auto ps = (*db)->Prepare("PRAGMA PAGE_SIZE");
  ASSERT_TRUE(ps.ok());
  EXPECT_EQ((*ps)->column_name(0), "page_size");
  auto step = (*ps)->Step();
  ASSERT_TRUE(step.ok() && *step);
  EXPECT_EQ((*ps)->column_type(0), ValueType::kInteger);
}

// ---- integrity_check on damaged files ----

class IntegrityTest : public PragmaTest {
 protected:
  // Tables with several levels, overflowing rows, indexes and a freelist,
  // on 1024-byte pages so that a few hundred rows span many pages.
  void MakeDatabase() {
    Sqlite(
        "PRAGMA page_size = 1024;"
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c);"
        "CREATE INDEX tb ON t(b);"
        "CREATE INDEX tcd ON t(c DESC, b);"
        "CREATE TABLE big(k INTEGER PRIMARY KEY, v);"
        "CREATE TABLE t2(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c);"
        "CREATE INDEX t2b ON t2(b);"
        "CREATE TABLE gone(x);"
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 400)"
        "  INSERT INTO t SELECT i * 3, 'v' || i, i % 7 FROM r;"
        "INSERT INTO t2 SELECT a, b, c FROM t WHERE a < 300;"
        "INSERT INTO big VALUES (1, randomblob(5000)), (2, 'short'), (3, randomblob(3000));"
        "INSERT INTO gone SELECT randomblob(100) FROM t;"
        "DROP TABLE gone;");
    ASSERT_EQ(SqliteRows(path_, "PRAGMA integrity_check"), std::vector<std::string>{"ok"});
    ASSERT_GT(std::stoi(SqliteRows(path_, "PRAGMA freelist_count")[0]), 10);
  }

  uint8_t* Page(std::vector<uint8_t>& f, uint32_t pgno) { return f.data() + (pgno - 1) * 1024; }

  // The first leaf of the tree rooted at `root` (leftmost descent).
  uint32_t FirstLeaf(const std::vector<uint8_t>& f, uint32_t root) {
    uint32_t p = root;
    for (;;) {
      const uint8_t* d = f.data() + (p - 1) * 1024 + (p == 1 ? 100 : 0);
      if (d[0] == 13 || d[0] == 10) return p;
      const uint16_t cell0 = get_u16(d + 12);
      p = get_u32(f.data() + (p - 1) * 1024 + cell0);
    }
  }

  // Damages the file, then checks that sqlite3 sees damage and that the
  // engine reports exactly what sqlite3 reports.
  //
  // Where sqlite3's row and index walk then meets the damage, what it does
  // next (an error, a row saying "database disk image is malformed", or
  // nothing) depends on which bytes its VDBE program happens to read; with
  // `page_report_only`, only the page-level report (the first row) must be
  // the same and the engine must not stop at it silently.
  void ExpectSameReport(const std::string& what, bool page_report_only = false) {
    const std::vector<std::string> want = SqliteRows(path_, "PRAGMA integrity_check");
    ASSERT_FALSE(want.empty()) << what;
    EXPECT_NE(want, std::vector<std::string>{"ok"}) << what << ": the damage went unnoticed";
    const std::vector<std::string> got = EngineRows(path_, "PRAGMA integrity_check");
    if (page_report_only) {
      ASSERT_GE(got.size(), 2u) << what;
      EXPECT_EQ(got[0], want[0]) << what;
      return;
    }
    EXPECT_EQ(got, want) << what;
    EXPECT_EQ(EngineRows(path_, "PRAGMA integrity_check(1)"),
              SqliteRows(path_, "PRAGMA integrity_check(1)"))
        << what;
  }

  void Corrupt(const std::function<void(std::vector<uint8_t>&)>& edit) {
    std::vector<uint8_t> f = ReadFile(path_);
    edit(f);
    WriteFile(path_, f);
  }
};

TEST_F(IntegrityTest, SoundFileIsOk) {
  MakeDatabase();
  for (const char* sql : {"PRAGMA integrity_check", "PRAGMA quick_check",
                          "PRAGMA integrity_check(t)", "PRAGMA integrity_check(big)"}) {
    EXPECT_EQ(EngineRows(path_, sql), std::vector<std::string>{"ok"}) << sql;
  }
}

TEST_F(IntegrityTest, FilesTheEngineWroteAreOk) {
  {
    auto db = Database::Open(path_);
    ASSERT_TRUE(db.ok());
    Status st = (*db)->Exec(
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c);"
        "CREATE INDEX tb ON t(b); CREATE UNIQUE INDEX tc ON t(c DESC);"
        "CREATE TABLE w(x, y); CREATE INDEX wy ON w(y, x);");
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_TRUE((*db)->Exec("BEGIN").ok());
    for (int i = 0; i < 3000; ++i) {
      const std::string n = std::to_string(i);
      ASSERT_TRUE((*db)
                      ->Exec("INSERT INTO t VALUES (" + n + ", 'row" + n + "', " + n +
                             "); INSERT INTO w VALUES (" + n + ", zeroblob(" +
                             std::to_string(i % 5 == 0 ? 2000 : 10) + "))")
                      .ok());
    }
    ASSERT_TRUE((*db)
                    ->Exec("COMMIT; DELETE FROM t WHERE a % 3 = 0; DELETE FROM w WHERE x < 1500;"
                           "UPDATE t SET b = b || 'x' WHERE a % 5 = 1")
                    .ok());
  }
  ASSERT_EQ(SqliteRows(path_, "PRAGMA integrity_check"), std::vector<std::string>{"ok"});
  EXPECT_GT(std::stoi(SqliteRows(path_, "PRAGMA freelist_count")[0]), 0);
  EXPECT_EQ(EngineRows(path_, "PRAGMA integrity_check"), std::vector<std::string>{"ok"});
}

TEST_F(IntegrityTest, FreelistCountWrong) {
  MakeDatabase();
  Corrupt([](std::vector<uint8_t>& f) { put_u32(f.data() + 36, get_u32(f.data() + 36) + 3); });
  ExpectSameReport("freelist count");
}

TEST_F(IntegrityTest, PageNeverUsed) {
  MakeDatabase();
  Corrupt([](std::vector<uint8_t>& f) {
    f.resize(f.size() + 2048);
    put_u32(f.data() + 28, get_u32(f.data() + 28) + 2);
  });
  ExpectSameReport("unused pages");
}

TEST_F(IntegrityTest, RowidOutOfOrder) {
  MakeDatabase();
  const uint32_t root = Root("t");
  Corrupt([&](std::vector<uint8_t>& f) {
    uint8_t* leaf = Page(f, FirstLeaf(f, root));
    std::swap(leaf[8], leaf[10]);
    std::swap(leaf[9], leaf[11]);
  });
  ExpectSameReport("two cells swapped");
}

TEST_F(IntegrityTest, FragmentCountWrong) {
  MakeDatabase();
  const uint32_t root = Root("t2");
  Corrupt([&](std::vector<uint8_t>& f) { Page(f, FirstLeaf(f, root))[7] += 2; });
  ExpectSameReport("fragment count");
}

TEST_F(IntegrityTest, CellOffsetOutOfRange) {
  MakeDatabase();
  const uint32_t root = Root("t");
  Corrupt([&](std::vector<uint8_t>& f) { put_u16(Page(f, FirstLeaf(f, root)) + 10, 1022); });
  ExpectSameReport("cell pointer past the page", /*page_report_only=*/true);
}

TEST_F(IntegrityTest, NotABtreePage) {
  MakeDatabase();
  const uint32_t root = Root("tb");
  Corrupt([&](std::vector<uint8_t>& f) { Page(f, FirstLeaf(f, root))[0] = 7; });
  ExpectSameReport("page type", /*page_report_only=*/true);
}

TEST_F(IntegrityTest, ChildReferencedTwice) {
  MakeDatabase();
  const uint32_t root = Root("t");
  Corrupt([&](std::vector<uint8_t>& f) {
    uint8_t* p = Page(f, root);
    ASSERT_EQ(p[0], 5);  // an interior table page
    const uint16_t cell0 = get_u16(p + 12);
    put_u32(p + cell0, get_u32(p + 8));  // the first child is now the right child
  });
  ExpectSameReport("a child twice");
}

TEST_F(IntegrityTest, OverflowChainCut) {
  MakeDatabase();
  const uint32_t root = Root("big");
  Corrupt([&](std::vector<uint8_t>& f) {
    // Row 1 holds 5000 bytes: find its overflow pointer and cut the chain
    // after its first page.
    uint8_t* leaf = Page(f, FirstLeaf(f, root));
    const uint8_t* end = leaf + 1024;
    for (int i = 0; i < get_u16(leaf + 3); ++i) {
      const uint16_t off = get_u16(leaf + 8 + 2 * i);
      uint64_t size = 0;
      uint64_t rowid = 0;
      const uint8_t* c = leaf + off;
      c += get_varint_bounded(c, end, &size);
      c += get_varint_bounded(c, end, &rowid);
      if (rowid != 1) continue;
      ASSERT_GT(size, max_local_payload(1024, true));
      const uint32_t local =
          local_payload_size(size, 1024, max_local_payload(1024, true), min_local_payload(1024));
      put_u32(Page(f, get_u32(c + local)), 0);
    }
  });
  ExpectSameReport("overflow chain cut short");
}

TEST_F(IntegrityTest, RowMissingFromIndex) {
  MakeDatabase();
  const uint32_t root = Root("t");
  Corrupt([&](std::vector<uint8_t>& f) {
    // Change a text value in the table; its index entry no longer matches.
    uint8_t* leaf = Page(f, FirstLeaf(f, root));
    for (int i = 0; i < 1024 - 1; ++i) {
      if (leaf[i] == 'v' && leaf[i + 1] == '1') {
        leaf[i] = 'w';
        break;
      }
    }
  });
  ExpectSameReport("a changed value");
}

TEST_F(IntegrityTest, IndexesOfTheWrongTable) {
  MakeDatabase();
  // t2 has fewer rows than t: swapping their indexes' roots loses entries
  // for one and adds strays to the other.
  const uint32_t tb = Root("tb");
  const uint32_t t2b = Root("t2b");
  Sqlite(
      "PRAGMA writable_schema = ON;"
      "UPDATE sqlite_schema SET rootpage = " +
      std::to_string(t2b) +
      " WHERE name = 'tb';"
      "UPDATE sqlite_schema SET rootpage = " +
      std::to_string(tb) + " WHERE name = 't2b';");
  ExpectSameReport("indexes swapped");
}

TEST_F(IntegrityTest, NullInNotNullColumn) {
  MakeDatabase();
  Sqlite(
      "CREATE TABLE n(a, b); INSERT INTO n VALUES (1, NULL), (2, 'x'), (NULL, NULL);"
      "PRAGMA writable_schema = ON;"
      "UPDATE sqlite_schema SET sql = 'CREATE TABLE n(a NOT NULL, b NOT NULL)' WHERE name = 'n';");
  ExpectSameReport("NULLs where NOT NULL");
  EXPECT_EQ(EngineRows(path_, "PRAGMA integrity_check(n)"),
            SqliteRows(path_, "PRAGMA integrity_check(n)"));
  EXPECT_EQ(EngineRows(path_, "PRAGMA quick_check"), SqliteRows(path_, "PRAGMA quick_check"));
}

}  // namespace
}  // namespace engine
