#include "engine/storage/btree.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/storage/btree_test_util.h"
#include "engine/storage/record.h"
#include "engine/storage/schema_table.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using btree_test::ExpectTableMatches;
using btree_test::OpenTree;
using btree_test::Payload;
using btree_test::Row;
using testing::SqliteDb;
using testing::TempDir;

// Walks the tree from its root: every leaf must sit at the same depth.
int TreeDepth(BTree& tree, uint32_t pgno, int depth = 1) {
  auto p = tree.pager().Get(pgno);
  EXPECT_TRUE(p.ok());
  PageInfo pg;
  EXPECT_TRUE(parse_page_header(p->data(), pgno, tree.usable_size(), &pg).ok());
  if (pg.leaf) return depth;
  if (depth > 1) {
    EXPECT_GT(pg.ncell, 0);
  }
  int d = -1;
  for (int i = 0; i <= pg.ncell; ++i) {
    uint32_t child = pg.right_child;
    if (i < pg.ncell) child = get_u32(p->data() + read_cell_ptr(p->data(), pg.ptrs_off, i));
    const int cd = TreeDepth(tree, child, depth + 1);
    if (d == -1) d = cd;
    EXPECT_EQ(d, cd) << "leaves at different depths under page " << pgno;
  }
  return d;
}

class BTreeTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(BTreeTest, RandomTableOpsMatchAModel) {
  TempDir dir;
  const std::string path = dir.file("t.db");
  auto tree = OpenTree(path, GetParam());
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  std::map<int64_t, size_t> model;
  std::mt19937_64 rng(GetParam());
  RecordBuilder b;
  for (int step = 0; step < 6000; ++step) {
    const int op = static_cast<int>(rng() % 10);
    const int64_t key = static_cast<int64_t>(rng() % 4000) - 500;
    if (op < 6) {
      const size_t len = rng() % 8 == 0 ? rng() % (3 * GetParam()) : rng() % 60;
      ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, len)).ok()) << step;
      model[key] = len;
    } else {
      BtCursor c(tree.get(), *root);
      bool found = false;
      ASSERT_TRUE(c.seek(key, &found).ok());
      auto it = model.lower_bound(key);
      ASSERT_EQ(found, it != model.end() && it->first == key);
      if (it == model.end()) {
        ASSERT_FALSE(c.valid());
        continue;
      }
      ASSERT_EQ(c.rowid(), it->first);
      const Status st = tree->Delete(&c);
      ASSERT_TRUE(st.ok()) << st.ToString();
      it = model.erase(it);
      ASSERT_TRUE(c.next().ok());
      if (it == model.end()) {
        ASSERT_FALSE(c.valid());
      } else {
        ASSERT_TRUE(c.valid());
        ASSERT_EQ(c.rowid(), it->first);
      }
    }
    if (step % 1000 == 999) ExpectTableMatches(*tree, *root, model);
  }
  ExpectTableMatches(*tree, *root, model);
  SchemaEntry e{"table", "t", "t", *root, "CREATE TABLE t(a INTEGER, b TEXT)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &e).ok());
  ASSERT_TRUE(tree->Commit().ok());
  ASSERT_TRUE(tree->BeginRead().ok());
  EXPECT_GE(TreeDepth(*tree, *root), 1);
  ASSERT_TRUE(tree->EndRead().ok());
  tree.reset();
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  auto rows = db.Query("SELECT count(*) FROM t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], std::to_string(model.size()));
}

TEST_P(BTreeTest, SequentialInsertsBuildThreeLevelsAndDeleteToEmpty) {
  TempDir dir;
  const std::string path = dir.file("s.db");
  auto tree = OpenTree(path, GetParam());
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  std::map<int64_t, size_t> model;
  const int n = GetParam() <= 1024 ? 20000 : 60000;
  for (int64_t k = 1; k <= n; ++k) {
    ASSERT_TRUE(tree->Insert(*root, k, Row(b, k, GetParam() / 40)).ok());
    model[k] = GetParam() / 40;
  }
  EXPECT_GE(TreeDepth(*tree, *root), 3);
  ExpectTableMatches(*tree, *root, model);
  // Seek every 7th key, then delete everything front to back with a cursor.
  BtCursor c(tree.get(), *root);
  for (int64_t k = 1; k <= n; k += 7) {
    bool found;
    ASSERT_TRUE(c.seek(k, &found).ok());
    ASSERT_TRUE(found);
    ASSERT_EQ(c.rowid(), k);
  }
  ASSERT_TRUE(c.first().ok());
  int64_t expect = 1;
  while (c.valid()) {
    ASSERT_EQ(c.rowid(), expect++);
    ASSERT_TRUE(tree->Delete(&c).ok());
    ASSERT_TRUE(c.next().ok());
  }
  EXPECT_EQ(expect, n + 1);
  EXPECT_EQ(TreeDepth(*tree, *root), 1);
  ASSERT_TRUE(tree->Commit().ok());
  // Every page but page 1 and the root went back to the freelist.
  EXPECT_EQ(tree->pager().freelist_count() + 2, tree->pager().page_count());
}

INSTANTIATE_TEST_SUITE_P(PageSizes, BTreeTest, ::testing::Values(512u, 1024u, 4096u));

struct IndexModel {
  std::set<std::pair<int64_t, int64_t>> entries;  // (value, rowid)
};

std::vector<uint8_t> Key(RecordBuilder& b, int64_t v, int64_t rowid) {
  const Value k[] = {Value::Integer(v), Value::Integer(rowid)};
  auto r = b.Build(k, 2);
  return {r.begin(), r.end()};
}

TEST(BTreeIndexTest, RandomIndexOpsAndSeeks) {
  TempDir dir;
  const std::string path = dir.file("i.db");
  auto tree = OpenTree(path, 512);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateIndex();
  ASSERT_TRUE(root.ok());
  std::set<std::pair<int64_t, int64_t>> model;
  std::mt19937_64 rng(99);
  RecordBuilder b;
  for (int step = 0; step < 20000; ++step) {
    const int64_t v = static_cast<int64_t>(rng() % 300);
    const int64_t rowid = static_cast<int64_t>(rng() % 1000);
    if (rng() % 3 != 0) {
      ASSERT_TRUE(tree->InsertIndex(*root, Key(b, v, rowid)).ok()) << step;
      model.insert({v, rowid});
    } else {
      BtCursor c(tree.get(), *root);
      const Value key[] = {Value::Integer(v)};
      bool exact;
      ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kGE, &exact).ok());
      auto it = model.lower_bound({v, INT64_MIN});
      if (it == model.end()) {
        ASSERT_FALSE(c.valid());
        continue;
      }
      ASSERT_TRUE(c.valid());
      ASSERT_EQ(exact, it->first == v);
      std::span<const uint8_t> p;
      ASSERT_TRUE(c.payload(&p).ok());
      RecordReader rr;
      ASSERT_TRUE(rr.Parse(p).ok());
      ASSERT_EQ(rr.column(0).as_int(), it->first);
      ASSERT_EQ(rr.column(1).as_int(), it->second);
      const Status st = tree->Delete(&c);
      ASSERT_TRUE(st.ok()) << st.ToString();
      it = model.erase(it);
      ASSERT_TRUE(c.next().ok());
      if (it == model.end()) {
        ASSERT_FALSE(c.valid());
      } else {
        ASSERT_TRUE(c.valid());
        ASSERT_TRUE(c.payload(&p).ok());
        ASSERT_TRUE(rr.Parse(p).ok());
        ASSERT_EQ(rr.column(0).as_int(), it->first);
        ASSERT_EQ(rr.column(1).as_int(), it->second);
      }
    }
  }
  EXPECT_GE(TreeDepth(*tree, *root), 3);
  // Full scans both ways, then every SeekOp at every value.
  BtCursor c(tree.get(), *root);
  RecordReader rr;
  auto current = [&]() {
    std::span<const uint8_t> p;
    EXPECT_TRUE(c.payload(&p).ok());
    EXPECT_TRUE(rr.Parse(p).ok());
    return std::make_pair(rr.column(0).as_int(), rr.column(1).as_int());
  };
  ASSERT_TRUE(c.first().ok());
  for (auto& e : model) {
    ASSERT_TRUE(c.valid());
    ASSERT_EQ(current(), e);
    ASSERT_TRUE(c.next().ok());
  }
  ASSERT_FALSE(c.valid());
  ASSERT_TRUE(c.last().ok());
  for (auto it = model.rbegin(); it != model.rend(); ++it) {
    ASSERT_TRUE(c.valid());
    ASSERT_EQ(current(), *it);
    ASSERT_TRUE(c.prev().ok());
  }
  ASSERT_FALSE(c.valid());
  for (int64_t v = -1; v <= 301; ++v) {
    const Value key[] = {Value::Integer(v)};
    auto ge = model.lower_bound({v, INT64_MIN});
    auto gt = model.upper_bound({v, INT64_MAX});
    ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kGE).ok());
    ASSERT_EQ(c.valid(), ge != model.end());
    if (c.valid()) {
      ASSERT_EQ(current(), *ge);
    }
    ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kGT).ok());
    ASSERT_EQ(c.valid(), gt != model.end());
    if (c.valid()) {
      ASSERT_EQ(current(), *gt);
    }
    ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kLT).ok());
    ASSERT_EQ(c.valid(), ge != model.begin());
    if (c.valid()) {
      ASSERT_EQ(current(), *std::prev(ge));
    }
    ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kLE).ok());
    ASSERT_EQ(c.valid(), gt != model.begin());
    if (c.valid()) {
      ASSERT_EQ(current(), *std::prev(gt));
    }
  }
  ASSERT_TRUE(tree->Commit().ok());
}

TEST(BTreeIndexTest, DescendingColumnOrder) {
  TempDir dir;
  auto tree = OpenTree(dir.file("d.db"), 1024);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateIndex();
  ASSERT_TRUE(root.ok());
  const KeyColumn desc[] = {{true, func::Collation::kBinary}};
  RecordBuilder b;
  for (int64_t v = 0; v < 2000; ++v) {
    ASSERT_TRUE(tree->InsertIndex(*root, Key(b, (v * 7919) % 2000, v), desc).ok());
  }
  BtCursor c(tree.get(), *root, desc);
  ASSERT_TRUE(c.first().ok());
  RecordReader rr;
  for (int64_t want = 1999; want >= 0; --want) {
    ASSERT_TRUE(c.valid());
    std::span<const uint8_t> p;
    ASSERT_TRUE(c.payload(&p).ok());
    ASSERT_TRUE(rr.Parse(p).ok());
    ASSERT_EQ(rr.column(0).as_int(), want);
    ASSERT_TRUE(c.next().ok());
  }
  const Value key[] = {Value::Integer(500)};
  bool exact;
  ASSERT_TRUE(c.seek_index(key, 1, SeekOp::kGE, &exact).ok());
  ASSERT_TRUE(exact);
  ASSERT_TRUE(tree->Rollback().ok());
}

TEST(BTreeTest2, OtherCursorsSurviveChanges) {
  TempDir dir;
  auto tree = OpenTree(dir.file("c.db"), 512);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  for (int64_t k = 0; k < 3000; k += 2) ASSERT_TRUE(tree->Insert(*root, k, Row(b, k, 30)).ok());
  BtCursor reader(tree.get(), *root);
  bool found;
  ASSERT_TRUE(reader.seek(1000, &found).ok());
  ASSERT_TRUE(found);
  // Inserting around it splits pages; the reader still moves in order.
  for (int64_t k = 1; k < 3000; k += 2) ASSERT_TRUE(tree->Insert(*root, k, Row(b, k, 30)).ok());
  ASSERT_TRUE(reader.next().ok());
  ASSERT_EQ(reader.rowid(), 1001);
  std::span<const uint8_t> p;
  ASSERT_TRUE(reader.payload(&p).ok());
  ASSERT_TRUE(tree->Commit().ok());
  ASSERT_TRUE(tree->BeginRead().ok());
  ASSERT_TRUE(reader.next().ok());
  ASSERT_EQ(reader.rowid(), 1002);
  ASSERT_TRUE(tree->EndRead().ok());
}

TEST(BTreeTest2, DropTreeFreesEveryPageAndRollbackRestores) {
  TempDir dir;
  const std::string path = dir.file("drop.db");
  auto tree = OpenTree(path, 1024);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  for (int64_t k = 0; k < 3000; ++k)
    ASSERT_TRUE(tree->Insert(*root, k, Row(b, k, k % 50 == 0 ? 5000 : 40)).ok());
  SchemaEntry e{"table", "t", "t", *root, "CREATE TABLE t(a INTEGER, b TEXT)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &e).ok());
  ASSERT_TRUE(tree->Commit().ok());
  const uint32_t pages = tree->pager().page_count();

  ASSERT_TRUE(tree->BeginWrite().ok());
  ASSERT_TRUE(tree->DropTree(*root).ok());
  ASSERT_TRUE(RemoveSchemaEntry(*tree, "t").ok());
  EXPECT_EQ(tree->pager().freelist_count(), pages - 1);
  ASSERT_TRUE(tree->Rollback().ok());
  ASSERT_TRUE(tree->BeginRead().ok());
  std::map<int64_t, size_t> model;
  for (int64_t k = 0; k < 3000; ++k) model[k] = k % 50 == 0 ? 5000 : 40;
  ExpectTableMatches(*tree, *root, model);
  ASSERT_TRUE(tree->EndRead().ok());

  ASSERT_TRUE(tree->BeginWrite().ok());
  ASSERT_TRUE(tree->DropTree(*root).ok());
  ASSERT_TRUE(RemoveSchemaEntry(*tree, "t").ok());
  ASSERT_TRUE(tree->Commit().ok());
  tree.reset();
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
}

TEST(BTreeTest2, CursorOutlivingItsTreeReportsAnError) {
  TempDir dir;
  auto tree = OpenTree(dir.file("close.db"), 1024);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginRead().ok());
  BtCursor c(tree.get(), 1);
  ASSERT_TRUE(c.first().ok());
  EXPECT_FALSE(c.valid());  // empty sqlite_schema
  ASSERT_TRUE(tree->EndRead().ok());
  tree.reset();
  EXPECT_FALSE(c.first().ok());
  EXPECT_FALSE(c.seek(1).ok());
}

// A row's overflow chain that leaves the file, or a payload larger than the
// whole database, is corruption when the row is read: never a read past the
// file or a buffer sized by a corrupt length.
TEST(BTreeTest2, BrokenOverflowChainIsCorruption) {
  TempDir dir;
  auto tree = OpenTree(dir.file("ovf.db"), 512);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  ASSERT_TRUE(tree->Insert(*root, 7, Row(b, 7, 5000)).ok());  // overflows onto 9 pages
  Pager& pager = tree->pager();
  ASSERT_GE(pager.page_count(), *root + 3);  // a chain of several pages
  auto read_row = [&]() {
    BtCursor c(tree.get(), *root);
    bool found = false;
    Status st = c.seek(7, &found);
    if (!st.ok()) return st;
    EXPECT_TRUE(found);
    std::span<const uint8_t> p;
    return c.payload(&p);
  };
  ASSERT_TRUE(read_row().ok());
  // Every page past the root is an overflow page; one that links onward
  // (the last of the chain links to 0) is made to link past the end.
  uint32_t linking = 0;
  for (uint32_t pg = *root + 1; pg <= pager.page_count() && linking == 0; ++pg) {
    auto p = pager.Get(pg);
    ASSERT_TRUE(p.ok());
    if (get_u32(p->data()) != 0) linking = pg;
  }
  ASSERT_NE(linking, 0u);
  {
    auto p = pager.Get(linking);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(pager.MakeWritable(*p).ok());
    put_u32(p->mutable_data(), 9999);
  }
  Status st = read_row();
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_NE(st.message().find("overflow chain points at page 9999"), std::string::npos)
      << st.ToString();
  ASSERT_TRUE(tree->Rollback().ok());
}

TEST(BTreeTest2, ChildPointerCycleIsCorruption) {
  TempDir dir;
  auto tree = OpenTree(dir.file("cyc.db"), 512);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  for (int64_t k = 0; k < 2000; ++k) ASSERT_TRUE(tree->Insert(*root, k, Row(b, k, 20)).ok());
  {
    // Point the root's right child back at the root.
    auto p = tree->pager().Get(*root);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(tree->pager().MakeWritable(*p).ok());
    put_u32(p->mutable_data() + 8, *root);
  }
  BtCursor c(tree.get(), *root);
  const Status st = c.last();
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_TRUE(c.seek(1999).IsCorruption());
  EXPECT_TRUE(tree->Insert(*root, 5000, Row(b, 1, 1)).IsCorruption());
  ASSERT_TRUE(tree->Rollback().ok());
}

}  // namespace
}  // namespace engine
