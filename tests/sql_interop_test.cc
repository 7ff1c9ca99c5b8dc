// Interop with the real sqlite3: databases built through the engine's SQL
// pass PRAGMA integrity_check and sqlite3 answers queries on them as the
// engine does; tables created by sqlite3 are queryable by the engine.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

std::vector<std::vector<std::string>> EngineRows(Database* db, const std::string& sql) {
  std::vector<std::vector<std::string>> rows;
  auto stmt = db->Prepare(sql);
  EXPECT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
  if (!stmt.ok()) return rows;
  for (;;) {
    auto r = (*stmt)->Step();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok() || !*r) break;
    std::vector<std::string> row;
    for (int i = 0; i < (*stmt)->column_count(); ++i) {
      const Value& v = (*stmt)->column_value(i);
      if (v.is_null()) {
        row.push_back("NULL");
      } else if (v.type() == ValueType::kReal) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", v.as_real());
        row.push_back(buf);
      } else {
        row.emplace_back((*stmt)->column_text(i));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

const char* kQueries[] = {
    "SELECT * FROM items ORDER BY id",
    "SELECT name, qty FROM items WHERE qty BETWEEN 10 AND 500 ORDER BY name, id",
    "SELECT cat, count(*), sum(qty), min(price), max(name) FROM items GROUP BY cat ORDER BY cat",
    "SELECT i.id, c.label FROM items i JOIN cats c ON c.code = i.cat ORDER BY i.id",
    "SELECT id FROM items WHERE name LIKE 'item1%' ORDER BY id",
    "SELECT count(*) FROM items WHERE cat IN (SELECT code FROM cats WHERE label <> 'c2')",
    "SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name",
};

TEST(SqlInteropTest, EngineBuiltDatabaseReadsBackInSqlite) {
  testing::TempDir dir;
  const std::string path = dir.file("engine.db");
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    Database& d = **db;
    ASSERT_TRUE(d.Exec("CREATE TABLE cats(code INTEGER PRIMARY KEY, label TEXT UNIQUE);"
                       "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cat INTEGER,"
                       " qty INT, price REAL, note);"
                       "CREATE INDEX items_cat ON items(cat, qty);"
                       "CREATE INDEX items_name ON items(name DESC)")
                    .ok());
    ASSERT_TRUE(d.Exec("BEGIN").ok());
    for (int c = 0; c < 7; ++c) {
      ASSERT_TRUE(d.Exec("INSERT INTO cats VALUES (" + std::to_string(c) + ", 'c" +
                         std::to_string(c) + "')")
                      .ok());
    }
    auto ins = d.Prepare("INSERT INTO items(name, cat, qty, price, note) VALUES (?, ?, ?, ?, ?)");
    ASSERT_TRUE(ins.ok());
    for (int i = 0; i < 3000; ++i) {
      Statement& s = **ins;
      ASSERT_TRUE(s.BindText(1, "item" + std::to_string(i)).ok());
      ASSERT_TRUE(s.BindInt(2, i % 9).ok());
      ASSERT_TRUE(s.BindInt(3, (i * 37) % 1000).ok());
      ASSERT_TRUE(s.BindReal(4, i * 0.25).ok());
      if (i % 5 == 0) {
        ASSERT_TRUE(s.BindNull(5).ok());
      } else {
        // Long notes spill to overflow pages.
        ASSERT_TRUE(s.BindText(5, std::string(static_cast<size_t>(i % 700), 'n')).ok());
      }
      auto r = s.Step();
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ASSERT_TRUE(s.Reset().ok());
    }
    ASSERT_TRUE(d.Exec("COMMIT").ok());
    ASSERT_TRUE(d.Exec("UPDATE items SET qty = qty + 1 WHERE cat = 3").ok());
    ASSERT_TRUE(d.Exec("DELETE FROM items WHERE id % 7 = 0").ok());
    ASSERT_TRUE(
        d.Exec("CREATE TABLE scratch(x); INSERT INTO scratch VALUES (1); DROP TABLE scratch").ok());
    ASSERT_TRUE(d.Exec("CREATE VIEW big AS SELECT id FROM items WHERE qty > 900").ok());
  }
  testing::SqliteDb oracle(path);
  ASSERT_TRUE(oracle.ok()) << oracle.error();
  EXPECT_EQ(oracle.IntegrityCheck(), "ok");
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok());
  for (const char* q : kQueries) {
    EXPECT_EQ(EngineRows(db->get(), q), oracle.Query(q)) << q;
  }
  EXPECT_EQ(EngineRows(db->get(), "SELECT count(*) FROM big"),
            oracle.Query("SELECT count(*) FROM big"));
}

TEST(SqlInteropTest, SqliteBuiltDatabaseIsQueryable) {
  testing::TempDir dir;
  const std::string path = dir.file("sqlite.db");
  {
    testing::SqliteDb oracle(path);
    ASSERT_TRUE(oracle.Exec(
        "CREATE TABLE cats(code INTEGER PRIMARY KEY, label TEXT UNIQUE);"
        "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, cat INTEGER, qty INT,"
        " price REAL, note, UNIQUE(name, cat));"
        "CREATE INDEX items_cat ON items(cat, qty);"
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999)"
        " INSERT INTO items(name, cat, qty, price, note)"
        " SELECT 'item' || i, i % 9, (i * 37) % 1000, i * 0.25, CASE WHEN i % 3 = 0 THEN NULL ELSE"
        " hex(randomblob(i % 300)) END FROM n;"
        "INSERT INTO cats VALUES (1, 'c1'), (2, 'c2'), (3, 'c3');"))
        << oracle.error();
  }
  testing::SqliteDb oracle(path);
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok());
  for (const char* q : kQueries) {
    EXPECT_EQ(EngineRows(db->get(), q), oracle.Query(q)) << q;
  }
  // And the engine's writes keep sqlite3's file sound.
  ASSERT_TRUE((*db)->Exec("INSERT INTO items(name, cat, qty) VALUES ('new', 1, 5)").ok());
  EXPECT_EQ((*db)->Exec("INSERT INTO items(name, cat, qty) VALUES ('new', 1, 6)").message(),
            "UNIQUE constraint failed: items.name, items.cat");
  ASSERT_TRUE((*db)->Exec("DELETE FROM items WHERE cat = 2").ok());
  db->reset();
  testing::SqliteDb after(path);
  EXPECT_EQ(after.IntegrityCheck(), "ok");
}

// Indexes whose key columns are NOCASE or RTRIM (by the column's definition
// or the index's COLLATE) are ordered by that collation in the file: sqlite3
// finds every row in them, and a UNIQUE NOCASE column refuses a second
// spelling of a value. And the engine maintains sqlite3's collated indexes.
TEST(SqlInteropTest, CollatedIndexesAreOrderedByTheirCollation) {
  testing::TempDir dir;
  const std::string path = dir.file("coll.db");
  const char* kSchema =
      "CREATE TABLE w(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE UNIQUE, tag TEXT,"
      " pad TEXT COLLATE RTRIM);"
      "CREATE INDEX w_tag ON w(tag COLLATE NOCASE DESC, pad);"
      "CREATE INDEX w_pad ON w(pad);";
  auto fill = [](auto exec) {
    for (int i = 0; i < 600; ++i) {
      std::string name = "Name" + std::to_string(i);
      for (size_t k = 0; k < name.size(); ++k) {
        if ((i >> (k % 5)) & 1) name[k] = static_cast<char>(std::toupper(name[k]));
      }
      const std::string tag = std::string(1, static_cast<char>((i % 3 ? 'a' : 'A') + i % 7));
      const std::string pad =
          "p" + std::to_string(i % 11) + std::string(static_cast<size_t>(i % 4), ' ');
      exec("INSERT INTO w(name, tag, pad) VALUES ('" + name + "', '" + tag + "', '" + pad + "')");
    }
  };
  const char* kCollatedQueries[] = {
      "SELECT id FROM w WHERE name = 'NAME17' ORDER BY id",
      "SELECT count(*) FROM w WHERE tag = 'B' COLLATE NOCASE",
      // Which spelling stands for a NOCASE group depends on the scan: upper()
      // makes the answer one.
      "SELECT upper(tag), count(*) FROM w INDEXED BY w_tag GROUP BY tag COLLATE NOCASE ORDER BY 1",
      "SELECT count(*) FROM w WHERE pad = 'p3'",
      "SELECT id FROM w INDEXED BY w_pad WHERE pad > 'p8' ORDER BY id",
  };
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Exec(kSchema).ok());
    ASSERT_TRUE((*db)->Exec("BEGIN").ok());
    fill([&](const std::string& sql) { ASSERT_TRUE((*db)->Exec(sql).ok()) << sql; });
    ASSERT_TRUE((*db)->Exec("COMMIT").ok());
    EXPECT_EQ((*db)->Exec("INSERT INTO w(name) VALUES ('name5')").message(),
              "UNIQUE constraint failed: w.name");
    ASSERT_TRUE(
        (*db)->Exec("UPDATE w SET tag = upper(tag), pad = pad || ' ' WHERE id % 5 = 0").ok());
    ASSERT_TRUE((*db)->Exec("DELETE FROM w WHERE id % 9 = 0").ok());
    auto check = (*db)->Prepare("PRAGMA integrity_check");
    ASSERT_TRUE(check.ok());
    ASSERT_TRUE(*(*check)->Step());
    EXPECT_EQ((*check)->column_text(0), "ok");
  }
  {
    testing::SqliteDb oracle(path);
    EXPECT_EQ(oracle.IntegrityCheck(), "ok");
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    for (const char* q : kCollatedQueries)
      EXPECT_EQ(EngineRows(db->get(), q), oracle.Query(q)) << q;
  }
  // The same from a file sqlite3 built, then written by the engine.
  const std::string spath = dir.file("coll_sqlite.db");
  {
    testing::SqliteDb oracle(spath);
    ASSERT_TRUE(oracle.Exec(kSchema)) << oracle.error();
    ASSERT_TRUE(oracle.Exec("BEGIN")) << oracle.error();
    fill([&](const std::string& sql) { ASSERT_TRUE(oracle.Exec(sql)) << sql; });
    ASSERT_TRUE(oracle.Exec("COMMIT")) << oracle.error();
  }
  {
    auto db = Database::Open(spath);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ((*db)->Exec("INSERT INTO w(name) VALUES ('NAME5')").message(),
              "UNIQUE constraint failed: w.name");
    ASSERT_TRUE(
        (*db)->Exec("UPDATE w SET name = name || 'x', pad = pad || '  ' WHERE id % 4 = 0").ok());
    ASSERT_TRUE((*db)->Exec("DELETE FROM w WHERE id % 6 = 0").ok());
    testing::SqliteDb oracle(spath);
    EXPECT_EQ(oracle.IntegrityCheck(), "ok");
    for (const char* q : kCollatedQueries)
      EXPECT_EQ(EngineRows(db->get(), q), oracle.Query(q)) << q;
  }
}

}  // namespace
}  // namespace engine

namespace engine {
namespace {

// Conflict clauses, views and triggers written by one side work in the other:
// sqlite3 fires the engine's triggers and keeps its tables' ON CONFLICT, and
// the engine fires sqlite3's.
TEST(SqlInteropTest, TriggersViewsAndConflictClausesAcrossFiles) {
  testing::TempDir dir;
  const std::string path = dir.file("objects.db");
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(
        (*db)
            ->Exec("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT UNIQUE ON CONFLICT REPLACE);"
                   "CREATE TABLE log(x);"
                   "CREATE VIEW v(p, q) AS SELECT a, b FROM t;"
                   "CREATE TRIGGER by_engine AFTER INSERT ON t BEGIN"
                   " INSERT INTO log VALUES('engine ' || new.b); END;"
                   "INSERT INTO t VALUES(1, 'x');")
            .ok());
  }
  {
    testing::SqliteDb oracle(path);
    EXPECT_EQ(oracle.IntegrityCheck(), "ok");
    ASSERT_TRUE(
        oracle.Exec("INSERT INTO t VALUES(2, 'x');"
                    "CREATE TRIGGER by_sqlite BEFORE DELETE ON t BEGIN"
                    " INSERT INTO log VALUES('sqlite ' || old.a); END;"))
        << oracle.error();
    EXPECT_EQ(oracle.Query("SELECT * FROM v"), (std::vector<std::vector<std::string>>{{"2", "x"}}));
  }
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("DELETE FROM t; INSERT INTO t VALUES(3, 'y');").ok());
  EXPECT_EQ(EngineRows(db->get(), "SELECT * FROM log ORDER BY rowid"),
            (std::vector<std::vector<std::string>>{
                {"engine x"}, {"engine x"}, {"sqlite 2"}, {"engine y"}}));
  db->reset();
  testing::SqliteDb after(path);
  EXPECT_EQ(after.IntegrityCheck(), "ok");
}

}  // namespace
}  // namespace engine
