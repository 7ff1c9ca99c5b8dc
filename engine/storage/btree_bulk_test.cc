// BTree::BulkLoadIndex: an index tree built bottom-up from sorted keys is
// one sqlite3 accepts (its integrity_check compares every index entry with
// the table), with every leaf at one depth, and as many pages as sqlite3's
// own CREATE INDEX makes of the same rows — for no key, one key, a key that
// ends a page exactly, and keys that overflow.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/storage/btree.h"
#include "engine/storage/btree_test_util.h"
#include "engine/storage/record.h"
#include "engine/storage/schema_table.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using btree_test::OpenTree;
using testing::SqliteDb;
using testing::TempDir;

// Row i's text: shared prefixes, a spread of lengths, and every 97th long
// enough to overflow even a 4096-byte page's index cell.
std::string TextOf(int64_t i) {
  const size_t len = i % 97 == 0 ? 3000 : static_cast<size_t>(5 + (i * 7919) % 60);
  std::string s = "key " + std::to_string((i * 104729) % 100003) + " ";
  s.resize(len, static_cast<char>('a' + i % 26));
  return s;
}

// A table t(a) of rows 1..n and, beside it, index i on t(a) bulk-loaded
// from its sorted keys; sqlite3 then checks the file.
void BuildAndCheck(const std::string& path, uint32_t page_size, int64_t n) {
  auto tree = OpenTree(path, page_size, 64);  // a small cache: the build spills
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto table = tree->CreateTable();
  ASSERT_TRUE(table.ok());
  RecordBuilder b;
  std::vector<std::pair<std::string, int64_t>> keys;
  for (int64_t i = 1; i <= n; ++i) {
    const std::string text = TextOf(i);
    const Value row[] = {Value::Text(text)};
    auto rec = b.Build(row, 1);
    ASSERT_TRUE(tree->Insert(*table, i, rec).ok());
    keys.emplace_back(text, i);
  }
  std::sort(keys.begin(), keys.end());
  auto index = tree->CreateIndex();
  ASSERT_TRUE(index.ok());
  size_t next = 0;
  std::vector<uint8_t> key;
  const Status st = tree->BulkLoadIndex(*index, [&](std::span<const uint8_t>* out) -> Result<bool> {
    if (next == keys.size()) return false;
    const Value k[] = {Value::Text(keys[next].first), Value::Integer(keys[next].second)};
    auto rec = b.Build(k, 2);
    key.assign(rec.begin(), rec.end());
    *out = key;
    ++next;
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  SchemaEntry te{"table", "t", "t", *table, "CREATE TABLE t(a TEXT)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &te).ok());
  SchemaEntry ie{"index", "i", "t", *index, "CREATE INDEX i ON t(a)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &ie).ok());
  ASSERT_TRUE(tree->Commit().ok());

  // The index in order, read back through a cursor.
  ASSERT_TRUE(tree->BeginRead().ok());
  {
    BtCursor c(tree.get(), *index);
    ASSERT_TRUE(c.first().ok());
    RecordReader rr;
    for (const auto& k : keys) {
      ASSERT_TRUE(c.valid());
      std::span<const uint8_t> p;
      ASSERT_TRUE(c.payload(&p).ok());
      ASSERT_TRUE(rr.Parse(p).ok());
      ASSERT_EQ(rr.column(0).as_text(), k.first);
      ASSERT_EQ(rr.column(1).as_int(), k.second);
      ASSERT_TRUE(c.next().ok());
    }
    EXPECT_FALSE(c.valid());
  }
  ASSERT_TRUE(tree->EndRead().ok());
  tree.reset();
}

uint32_t IndexPages(SqliteDb& db) {
  auto rows = db.Query("SELECT count(*) FROM dbstat WHERE name = 'i'");
  return rows.size() == 1 ? static_cast<uint32_t>(std::stoul(rows[0][0])) : 0;
}

class BulkLoadTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(BulkLoadTest, SqliteAcceptsTheTreeOfAsManyPagesAsItsOwn) {
  const uint32_t page_size = GetParam();
  // 0 and 1 keys; a few; a page's worth and more; thousands (three levels
  // on small pages).
  for (int64_t n : {0, 1, 2, 5, 40, 41, 300, 5000, 20000}) {
    SCOPED_TRACE("keys: " + std::to_string(n));
    TempDir dir;
    const std::string path = dir.file("b.db");
    BuildAndCheck(path, page_size, n);
    if (::testing::Test::HasFatalFailure()) return;
    uint32_t ours = 0;
    {
      SqliteDb db(path);
      ASSERT_TRUE(db.ok());
      EXPECT_EQ(db.IntegrityCheck(), "ok");
      auto count = db.Query("SELECT count(*) FROM t INDEXED BY i WHERE a > ''");
      ASSERT_EQ(count.size(), 1u);
      EXPECT_EQ(count[0][0], std::to_string(n));
      ours = IndexPages(db);
      // sqlite3's own build of the same index, for the page count.
      ASSERT_TRUE(db.Exec("DROP INDEX i; CREATE INDEX i ON t(a);")) << db.error();
      const uint32_t theirs = IndexPages(db);
      // Packed as sqlite3 packs them: the same number of pages (the last
      // two leaves may share their cells differently). dbstat counts the
      // root of an empty index too: a 0 is a failed query, never a match.
      EXPECT_GT(ours, 0u);
      EXPECT_EQ(ours, theirs);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PageSizes, BulkLoadTest, ::testing::Values(512u, 1024u, 4096u));

TEST(BulkLoadErrorsTest, RefusesAnythingButAnEmptyIndexRootInAWrite) {
  TempDir dir;
  auto tree = OpenTree(dir.file("e.db"), 1024);
  ASSERT_TRUE(tree);
  auto none = [](std::span<const uint8_t>*) -> Result<bool> { return false; };
  EXPECT_FALSE(tree->BulkLoadIndex(2, none).ok());  // no write transaction
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto table = tree->CreateTable();
  auto index = tree->CreateIndex();
  ASSERT_TRUE(table.ok() && index.ok());
  EXPECT_FALSE(tree->BulkLoadIndex(*table, none).ok());  // a table's root
  EXPECT_FALSE(tree->BulkLoadIndex(1, none).ok());       // sqlite_schema
  EXPECT_FALSE(tree->BulkLoadIndex(9999, none).ok());    // past the file
  RecordBuilder b;
  const Value k[] = {Value::Integer(1), Value::Integer(1)};
  ASSERT_TRUE(tree->InsertIndex(*index, b.Build(k, 2)).ok());
  EXPECT_FALSE(tree->BulkLoadIndex(*index, none).ok());  // not empty
  // The stream's error is the load's.
  auto index2 = tree->CreateIndex();
  ASSERT_TRUE(index2.ok());
  const Status st = tree->BulkLoadIndex(
      *index2, [](std::span<const uint8_t>*) -> Result<bool> { return Status::IOError("boom"); });
  EXPECT_EQ(st.message(), "boom");
  ASSERT_TRUE(tree->Rollback().ok());
}

}  // namespace
}  // namespace engine
