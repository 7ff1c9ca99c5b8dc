// The B-tree's shortcuts for prepared DML, each checked against a model:
// an insert that takes its place from a positioned cursor (no descent), the
// cursor left on the new row, a seek that stays in the current leaf, an
// index insert placed where the UNIQUE probe ended, the overwrite in place,
// and the pager's rollback that keeps the pages a transaction never touched.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
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

using btree_test::ExpectTableMatches;
using btree_test::Row;
using testing::SqliteDb;
using testing::TempDir;

// Small pages: many leaves, splits early.
std::unique_ptr<BTree> Open(const std::string& path, size_t cache_pages = 2000) {
  return btree_test::OpenTree(path, 1024, cache_pages);
}

// Names the tree `t` in sqlite_schema, commits and closes it, so that the
// real SQLite can check the file.
void CommitAsTableT(std::unique_ptr<BTree>& tree, uint32_t root) {
  SchemaEntry e{"table", "t", "t", root, "CREATE TABLE t(a INTEGER, b TEXT)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &e).ok());
  ASSERT_TRUE(tree->Commit().ok());
  tree.reset();
}

// Rowid-order inserts through one cursor, as a prepared INSERT runs them:
// seek (finds nothing, past the end), insert with that cursor as the hint,
// and the cursor stands on the new row for the next round.
TEST(BTreeHintTest, AppendsThroughOneCursorMatchAModel) {
  TempDir dir;
  const std::string path = dir.file("a.db");
  auto tree = Open(path);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  std::map<int64_t, size_t> model;
  BtCursor c(tree.get(), *root);
  int landed = 0;
  for (int64_t key = 1; key <= 3000; ++key) {
    bool found = true;
    ASSERT_TRUE(c.seek(key, &found).ok());
    ASSERT_FALSE(found);
    ASSERT_FALSE(c.valid());
    const size_t len = static_cast<size_t>(key % 7 == 0 ? 300 : 20);
    ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, len), &c).ok()) << key;
    model[key] = len;
    // Without a rebalance the cursor stays on the row it wrote; after one it
    // lets go (and the next seek descends).
    landed += c.at_rowid(key);
    if (!c.at_rowid(key)) {
      ASSERT_FALSE(c.valid());
    }
  }
  EXPECT_GT(landed, 2500);
  ExpectTableMatches(*tree, *root, model);
  ASSERT_NO_FATAL_FAILURE(CommitAsTableT(tree, *root));
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(db.Query("SELECT count(*), min(a), max(a) FROM t"),
            (std::vector<std::vector<std::string>>{{"3000", "1", "3000"}}));
}

// Hints from every kind of position, right or wrong: a hint that does not
// pin the rowid's place down must make Insert descend, never misplace it.
TEST(BTreeHintTest, InsertsWithStaleOrWrongHintsMatchAModel) {
  TempDir dir;
  const std::string path = dir.file("h.db");
  auto tree = Open(path);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  std::map<int64_t, size_t> model;
  std::mt19937_64 rng(7);
  BtCursor hint(tree.get(), *root);
  int landed = 0;  // inserts that took their place from the hint
  for (int step = 0; step < 8000; ++step) {
    const int64_t key = static_cast<int64_t>(rng() % 5000);
    // Place the hint somewhere: on the key, near it, at the end, or anywhere.
    switch (rng() % 5) {
      case 0:
        ASSERT_TRUE(hint.seek(key).ok());
        break;
      case 1:
        ASSERT_TRUE(hint.seek(key - 1).ok());
        break;
      case 2:
        ASSERT_TRUE(hint.last().ok());
        break;
      case 3:
        ASSERT_TRUE(hint.seek(static_cast<int64_t>(rng() % 5000)).ok());
        break;
      default:
        hint.close();
        break;
    }
    // Sizes that keep, grow and shrink the row: in-place and moved replaces.
    const size_t len = static_cast<size_t>(rng() % 4 == 0 ? rng() % 200 : 10 + rng() % 3);
    ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, len), &hint).ok()) << step;
    model[key] = len;
    landed += hint.at_rowid(key);
    if (rng() % 4 == 0) {
      // Deletes through another cursor save the hint; it must still work.
      BtCursor d(tree.get(), *root);
      const int64_t victim = static_cast<int64_t>(rng() % 5000);
      bool found = false;
      ASSERT_TRUE(d.seek(victim, &found).ok());
      if (found) {
        ASSERT_TRUE(tree->Delete(&d).ok());
        model.erase(victim);
      }
    }
    if (step % 2000 == 1999) ExpectTableMatches(*tree, *root, model);
  }
  EXPECT_GT(landed, 1000);
  ExpectTableMatches(*tree, *root, model);
  ASSERT_NO_FATAL_FAILURE(CommitAsTableT(tree, *root));
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
}

// A seek from a positioned cursor (searching only its leaf when it can)
// lands exactly where a fresh cursor's descent does.
TEST(BTreeHintTest, SeeksFromAPositionedCursorAgreeWithFreshOnes) {
  TempDir dir;
  auto tree = Open(dir.file("s.db"));
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  for (int64_t key = 0; key < 4000; key += 3) {
    ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, 30)).ok());
  }
  std::mt19937_64 rng(11);
  BtCursor moving(tree.get(), *root);
  for (int step = 0; step < 20000; ++step) {
    // Mostly nearby keys (the same leaf), sometimes far ones, past both ends.
    const int64_t key = step % 5 == 0 ? static_cast<int64_t>(rng() % 4200) - 100
                                      : (step * 7) % 4100 - 20 + static_cast<int64_t>(rng() % 9);
    BtCursor fresh(tree.get(), *root);
    bool found_moving = false, found_fresh = false;
    ASSERT_TRUE(moving.seek(key, &found_moving).ok());
    ASSERT_TRUE(fresh.seek(key, &found_fresh).ok());
    ASSERT_EQ(found_moving, found_fresh) << key;
    ASSERT_EQ(moving.valid(), fresh.valid()) << key;
    if (fresh.valid()) {
      ASSERT_EQ(moving.rowid(), fresh.rowid()) << key;
    }
    if (step % 3 == 0 && moving.valid()) {
      // Stepping keeps the cursor consistent for the next leaf-local seek.
      ASSERT_TRUE(moving.next().ok());
    }
  }
  ASSERT_TRUE(tree->Commit().ok());
}

std::vector<uint8_t> Key(RecordBuilder& b, int64_t a, int64_t c, int64_t rowid) {
  const Value k[] = {Value::Integer(a), Value::Integer(c), Value::Integer(rowid)};
  auto r = b.Build(k, 3);
  return {r.begin(), r.end()};
}

// A UNIQUE index insert as DML runs it: probe (a, c), then insert (a, c,
// rowid) with the probe's cursor as the hint. Stale probes (other keys,
// moved cursors) must not misplace the key.
TEST(BTreeHintTest, IndexInsertsPlacedByTheProbeMatchAModel) {
  TempDir dir;
  auto tree = Open(dir.file("i.db"));
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateIndex();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  std::set<std::tuple<int64_t, int64_t, int64_t>> model;
  std::mt19937_64 rng(13);
  BtCursor probe(tree.get(), *root);
  int64_t rowid = 0;
  for (int step = 0; step < 12000; ++step) {
    // Ascending runs inside a few hot prefixes, as TPC-C's order lines go.
    const int64_t a = static_cast<int64_t>(rng() % 10);
    const int64_t c = step % 4 == 0 ? static_cast<int64_t>(rng() % 3000) : step / 10;
    const int64_t probe_a = rng() % 8 == 0 ? a + 1 : a;  // sometimes the wrong key
    const Value pk[] = {Value::Integer(probe_a), Value::Integer(c)};
    bool exact = false;
    ASSERT_TRUE(probe.seek_index(pk, 2, SeekOp::kGE, &exact).ok());
    if (rng() % 10 == 0 && probe.valid()) {
      ASSERT_TRUE(probe.next().ok());
    }
    ++rowid;
    ASSERT_TRUE(tree->InsertIndex(*root, Key(b, a, c, rowid), {}, &probe).ok()) << step;
    model.insert({a, c, rowid});
  }
  // Most probes were right: the shortcut must have been taken, not only
  // been harmless.
  EXPECT_GT(tree->index_hint_hits(), 6000u) << tree->index_hint_hits();
  BtCursor scan(tree.get(), *root);
  ASSERT_TRUE(scan.first().ok());
  RecordReader rr;
  for (const auto& [a, c, r] : model) {
    ASSERT_TRUE(scan.valid());
    std::span<const uint8_t> p;
    ASSERT_TRUE(scan.payload(&p).ok());
    ASSERT_TRUE(rr.Parse(p).ok());
    ASSERT_EQ(rr.column(0).as_int(), a);
    ASSERT_EQ(rr.column(1).as_int(), c);
    ASSERT_EQ(rr.column(2).as_int(), r);
    ASSERT_TRUE(scan.next().ok());
  }
  ASSERT_FALSE(scan.valid());
  ASSERT_TRUE(tree->Commit().ok());
}

// Rollback drops only what the transaction changed: the other cached pages
// are not read again, and the changed ones read back as they were.
TEST(PagerRollbackTest, KeepsUntouchedPagesCached) {
  TempDir dir;
  const std::string path = dir.file("r.db");
  auto tree = Open(path);
  ASSERT_TRUE(tree);
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto root = tree->CreateTable();
  ASSERT_TRUE(root.ok());
  RecordBuilder b;
  std::map<int64_t, size_t> model;
  for (int64_t key = 1; key <= 2000; ++key) {
    ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, 40)).ok());
    model[key] = 40;
  }
  ASSERT_TRUE(tree->Commit().ok());
  ASSERT_TRUE(tree->BeginRead().ok());
  ExpectTableMatches(*tree, *root, model);  // everything cached
  const uint64_t reads = tree->pager().page_reads();
  ASSERT_TRUE(tree->BeginWrite().ok());
  for (int64_t key = 500; key < 520; ++key) {
    ASSERT_TRUE(tree->Insert(*root, key, Row(b, key, 90)).ok());
  }
  ASSERT_TRUE(tree->Rollback().ok());
  ExpectTableMatches(*tree, *root, model);
  const uint64_t reread = tree->pager().page_reads() - reads;
  EXPECT_GT(reread, 0u);   // the changed pages came back from the file
  EXPECT_LT(reread, 12u);  // and only they did, not the whole table
  ASSERT_TRUE(tree->EndRead().ok());
}

// Freelist leaves are reused without journaling their (dead) content; a
// rollback after reusing them, with the cache too small to hold the
// transaction (so changed pages spill to the file), must leave the old
// tables and the freelist exactly as they were.
TEST(PagerRollbackTest, ReusedFreelistPagesRollBackCleanly) {
  TempDir dir;
  const std::string path = dir.file("f.db");
  auto tree = Open(path, 16);
  ASSERT_TRUE(tree);
  RecordBuilder b;
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto keep = tree->CreateTable();
  auto doomed = tree->CreateTable();
  ASSERT_TRUE(keep.ok() && doomed.ok());
  std::map<int64_t, size_t> model;
  for (int64_t key = 1; key <= 600; ++key) {
    ASSERT_TRUE(tree->Insert(*keep, key, Row(b, key, 50)).ok());
    model[key] = 50;
    ASSERT_TRUE(tree->Insert(*doomed, key, Row(b, key, 50)).ok());
  }
  SchemaEntry e{"table", "keep", "keep", *keep, "CREATE TABLE keep(a INTEGER, b TEXT)", 0};
  ASSERT_TRUE(AddSchemaEntry(*tree, &e).ok());
  ASSERT_TRUE(tree->Commit().ok());
  // Free the second table's pages in one transaction...
  ASSERT_TRUE(tree->BeginWrite().ok());
  ASSERT_TRUE(tree->DropTree(*doomed).ok());
  ASSERT_TRUE(tree->Commit().ok());
  const uint32_t free_before = tree->pager().freelist_count();
  ASSERT_GT(free_before, 20u);
  // ...reuse them in the next one, spilling, then roll it back.
  ASSERT_TRUE(tree->BeginWrite().ok());
  auto fresh = tree->CreateTable();
  ASSERT_TRUE(fresh.ok());
  for (int64_t key = 1; key <= 600; ++key) {
    ASSERT_TRUE(tree->Insert(*fresh, key, Row(b, key, 60)).ok());
  }
  ASSERT_TRUE(tree->Rollback().ok());
  ASSERT_TRUE(tree->BeginRead().ok());
  EXPECT_EQ(tree->pager().freelist_count(), free_before);
  ExpectTableMatches(*tree, *keep, model);
  ASSERT_TRUE(tree->EndRead().ok());
  tree.reset();
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(db.Query("SELECT count(*) FROM keep"),
            (std::vector<std::vector<std::string>>{{"600"}}));
}

}  // namespace
}  // namespace engine
