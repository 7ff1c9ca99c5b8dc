#include "engine/catalog/schema.h"

#include <gtest/gtest.h>

#include "engine/catalog/schema_loader.h"
#include "engine/sql/parser.h"
#include "engine/storage/btree.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine::catalog {
namespace {

std::unique_ptr<TableInfo> Table(const std::string& sql) {
  auto st = sql::ParseStatement(sql);
  EXPECT_TRUE(st.ok()) << st.status().ToString();
  auto t = TableFromAst(*st->as<sql::CreateTableStmt>(), st->ast);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(*t);
}

std::vector<std::string> AutoNames(const std::string& sql) {
  auto st = sql::ParseStatement(sql);
  auto t = TableFromAst(*st->as<sql::CreateTableStmt>(), st->ast);
  std::vector<std::string> out;
  for (const auto& ix : AutoIndexesFor(*st->as<sql::CreateTableStmt>(), **t)) {
    std::string cols;
    for (int c : ix->columns) cols += std::to_string(c);
    out.push_back(ix->name + ":" + cols);
  }
  return out;
}

TEST(SchemaTest, AffinitiesAndRowidAlias) {
  auto t = Table(
      "CREATE TABLE t(id INTEGER PRIMARY KEY, a VARCHAR(10), b FLOATING POINT, c, d DECIMAL(5,2), "
      "e BIGINT)");
  EXPECT_EQ(t->rowid_alias, 0);
  EXPECT_EQ(t->columns[1].affinity, Affinity::kText);
  EXPECT_EQ(t->columns[2].affinity, Affinity::kInteger);  // "POINT" contains INT
  EXPECT_EQ(t->columns[3].affinity, Affinity::kBlob);
  EXPECT_EQ(t->columns[4].affinity, Affinity::kNumeric);
  EXPECT_EQ(t->columns[5].affinity, Affinity::kInteger);
  EXPECT_EQ(Table("CREATE TABLE t(id INT PRIMARY KEY)")->rowid_alias, -1);
  EXPECT_EQ(Table("CREATE TABLE t(id INTEGER PRIMARY KEY DESC)")->rowid_alias, -1);
  EXPECT_EQ(Table("CREATE TABLE t(a, id INTEGER, PRIMARY KEY(id))")->rowid_alias, 1);
  EXPECT_EQ(t->FindColumn("A"), 1);
}

TEST(SchemaTest, AutoIndexesFollowSqliteNaming) {
  EXPECT_EQ(AutoNames("CREATE TABLE t(a UNIQUE, b, c, PRIMARY KEY(b, c), UNIQUE(c))"),
            (std::vector<std::string>{"sqlite_autoindex_t_1:0", "sqlite_autoindex_t_2:12",
                                      "sqlite_autoindex_t_3:2"}));
  auto two = sql::ParseStatement("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT PRIMARY KEY)");
  ASSERT_TRUE(two.ok());
  auto rejected = TableFromAst(*two->as<sql::CreateTableStmt>(), two->ast);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().message(), "table \"t\" has more than one primary key");
  EXPECT_EQ(AutoNames("CREATE TABLE t(a UNIQUE, UNIQUE(a))").size(), 1u);
}

TEST(SchemaTest, LoadsWhatSqliteWrote) {
  testing::TempDir dir;
  const std::string path = dir.file("s.db");
  {
    testing::SqliteDb db(path);
    ASSERT_TRUE(
        db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT UNIQUE COLLATE NOCASE, b REAL);"
                "CREATE INDEX tb ON t(b DESC, a);"
                "CREATE INDEX ta ON t(a COLLATE RTRIM, b);"
                "CREATE VIEW v(x) AS SELECT a FROM t;"))
        << db.error();
  }
  auto tree = BTree::Open(path, PagerOptions{});
  ASSERT_TRUE(tree.ok());
  ASSERT_TRUE((*tree)->BeginRead().ok());
  auto schema = LoadSchema(**tree);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const TableInfo* t = (*schema)->FindTable("T");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->indexes.size(), 3u);
  const IndexInfo* auto_ix = (*schema)->FindIndex("sqlite_autoindex_t_1");
  ASSERT_NE(auto_ix, nullptr);
  EXPECT_TRUE(auto_ix->unique);
  EXPECT_TRUE(auto_ix->automatic);
  const IndexInfo* tb = (*schema)->FindIndex("tb");
  ASSERT_NE(tb, nullptr);
  EXPECT_EQ(tb->columns, (std::vector<int>{2, 1}));
  // Key columns keep their direction and collation: the column's own
  // (NOCASE) unless the index names another.
  using func::Collation;
  EXPECT_EQ(tb->keys,
            (std::vector<KeyColumn>{{true, Collation::kBinary}, {false, Collation::kNoCase}}));
  EXPECT_EQ(auto_ix->keys, (std::vector<KeyColumn>{{false, Collation::kNoCase}}));
  const IndexInfo* ta = (*schema)->FindIndex("ta");
  ASSERT_NE(ta, nullptr);
  EXPECT_EQ(ta->keys,
            (std::vector<KeyColumn>{{false, Collation::kRtrim}, {false, Collation::kBinary}}));
  EXPECT_FALSE(ta->binary_collation);
  const ViewInfo* v = (*schema)->FindView("v");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->columns, std::vector<std::string>{"x"});
  EXPECT_NE((*schema)->FindTable("sqlite_schema"), nullptr);
  ASSERT_TRUE((*tree)->EndRead().ok());
}

}  // namespace
}  // namespace engine::catalog
