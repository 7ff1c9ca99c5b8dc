#include "engine/storage/schema_table.h"

#include <gtest/gtest.h>

#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

TEST(SchemaTableTest, WritesRowsSqliteReads) {
  testing::TempDir dir;
  const std::string path = dir.file("schema.db");
  {
    auto tree = BTree::Open(path, PagerOptions{});
    ASSERT_TRUE(tree.ok()) << tree.status().ToString();
    BTree& t = **tree;
    ASSERT_TRUE(t.BeginWrite().ok());
    const uint32_t cookie = t.pager().schema_cookie();
    auto root = t.CreateTable();
    ASSERT_TRUE(root.ok());
    SchemaEntry e{"table", "people", "people", *root, "CREATE TABLE people(name TEXT, age INT)", 0};
    ASSERT_TRUE(AddSchemaEntry(t, &e).ok());
    EXPECT_EQ(e.rowid, 1);
    auto iroot = t.CreateIndex();
    ASSERT_TRUE(iroot.ok());
    SchemaEntry ie{
        "index", "people_age", "people", *iroot, "CREATE INDEX people_age ON people(age)", 0};
    ASSERT_TRUE(AddSchemaEntry(t, &ie).ok());
    EXPECT_EQ(ie.rowid, 2);
    SchemaEntry v{"view", "v", "v", 0, "CREATE VIEW v AS SELECT 1", 0};
    ASSERT_TRUE(AddSchemaEntry(t, &v).ok());
    ASSERT_TRUE(RemoveSchemaEntry(t, "v").ok());
    EXPECT_TRUE(RemoveSchemaEntry(t, "nope").IsNotFound());
    EXPECT_GT(t.pager().schema_cookie(), cookie);
    ASSERT_TRUE(t.Commit().ok());
    ASSERT_TRUE(t.BeginRead().ok());
    auto rows = ReadSchema(t);
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows->size(), 2u);
    EXPECT_EQ((*rows)[0], e);
    EXPECT_EQ((*rows)[1], ie);
    ASSERT_TRUE(t.EndRead().ok());
  }
  testing::SqliteDb db(path);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  ASSERT_TRUE(db.Exec("INSERT INTO people VALUES('ann', 31), ('bob', 27)"));
  auto r = db.Query("SELECT name FROM people WHERE age > 30");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0], "ann");
  // And the engine reads what sqlite3 wrote into sqlite_schema.
  ASSERT_TRUE(db.Exec("CREATE TABLE later(x)"));
  auto tree = BTree::Open(path, PagerOptions{});
  ASSERT_TRUE(tree.ok());
  ASSERT_TRUE((*tree)->BeginRead().ok());
  auto rows = ReadSchema(**tree);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[2].name, "later");
  EXPECT_EQ((*rows)[2].sql.value_or(""), "CREATE TABLE later(x)");
  ASSERT_TRUE((*tree)->EndRead().ok());
}

}  // namespace
}  // namespace engine
