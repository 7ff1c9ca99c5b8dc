// Statement savepoints at the pager level: RollbackStatement() returns every
// page, the page count and the freelist to where BeginStatement() found
// them, keeps the transaction's earlier changes, and works when the cache
// spilled pages to the file and the journal spilled images to its file.
#include "engine/storage/statement_journal.h"

#include <gtest/gtest.h>

#include <vector>

#include "engine/storage/pager.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::TempDir;

TEST(StatementJournalTest, KeepsImagesInMemoryThenInAFile) {
  constexpr uint32_t kPage = 512;
  StatementJournal j(Env::Default(), /*memory_limit=*/2 * kPage);
  j.Begin(kPage, 10);
  std::vector<uint8_t> img(kPage);
  for (uint32_t p : {3u, 7u, 1u, 9u}) {
    ASSERT_TRUE(j.NeedsSave(p));
    std::fill(img.begin(), img.end(), static_cast<uint8_t>(p));
    ASSERT_TRUE(j.Save(p, img.data()).ok());
    EXPECT_FALSE(j.NeedsSave(p));
  }
  EXPECT_FALSE(j.NeedsSave(11));  // past the start's page count: new, nothing to save
  ASSERT_EQ(j.size(), 4u);
  for (size_t i = 0; i < j.size(); ++i) {
    ASSERT_TRUE(j.Read(i, img.data()).ok());
    EXPECT_EQ(img[0], j.pgno(i));
    EXPECT_EQ(img[kPage - 1], j.pgno(i));
  }
  j.Begin(kPage, 10);  // the next statement starts empty
  EXPECT_EQ(j.size(), 0u);
  EXPECT_TRUE(j.NeedsSave(3));
}

// Page p (for p >= 2) holds `tag` in every byte.
void Stamp(Pager& pager, uint32_t pgno, uint8_t tag) {
  auto p = pager.Get(pgno);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_TRUE(pager.MakeWritable(*p).ok());
  std::fill(p->mutable_data(), p->mutable_data() + pager.page_size(), tag);
}

uint8_t TagOf(Pager& pager, uint32_t pgno) {
  auto p = pager.Get(pgno);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? p->data()[100] : 0;
}

TEST(PagerStatementTest, RollbackStatementKeepsEarlierChanges) {
  TempDir dir;
  PagerOptions opts;
  opts.cache_pages = 16;  // so that the statements below spill
  auto opened = Pager::Open(dir.file("s.db"), opts);
  ASSERT_TRUE(opened.ok());
  Pager& pager = **opened;

  ASSERT_TRUE(pager.BeginWrite().ok());
  for (int i = 0; i < 40; ++i) {
    auto p = pager.Allocate();
    ASSERT_TRUE(p.ok());
    std::fill(p->mutable_data(), p->mutable_data() + pager.page_size(), uint8_t{1});
  }
  ASSERT_TRUE(pager.Commit().ok());  // pages 2..41 hold 1

  ASSERT_TRUE(pager.BeginWrite().ok());
  // Statement 1 succeeds: pages 2..21 become 2, page 30 is freed.
  ASSERT_TRUE(pager.BeginStatement().ok());
  for (uint32_t p = 2; p <= 21; ++p) Stamp(pager, p, 2);
  ASSERT_TRUE(pager.Free(30).ok());
  pager.EndStatement();
  const uint32_t count = pager.page_count();
  const uint32_t free_count = pager.freelist_count();

  // Statement 2 fails: rewrites everything, reuses the free page, appends pages.
  ASSERT_TRUE(pager.BeginStatement().ok());
  for (uint32_t p = 2; p <= 41; ++p) {
    if (p != 30) Stamp(pager, p, 3);
  }
  for (int i = 0; i < 30; ++i) {
    auto p = pager.Allocate();
    ASSERT_TRUE(p.ok());
    std::fill(p->mutable_data(), p->mutable_data() + pager.page_size(), uint8_t{3});
  }
  ASSERT_GT(pager.page_count(), count);
  ASSERT_TRUE(pager.RollbackStatement().ok());

  EXPECT_EQ(pager.page_count(), count);
  EXPECT_EQ(pager.freelist_count(), free_count);
  for (uint32_t p = 2; p <= 41; ++p) {
    if (p == 30) continue;
    EXPECT_EQ(TagOf(pager, p), p <= 21 ? 2 : 1) << "page " << p;
  }
  ASSERT_TRUE(pager.Commit().ok());
  opened->reset();

  testing::SqliteDb db(dir.file("s.db"), /*read_only=*/true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(db.Query("PRAGMA page_count")[0][0], std::to_string(count));
  EXPECT_EQ(db.Query("PRAGMA freelist_count")[0][0], std::to_string(free_count));
}

TEST(PagerStatementTest, TransactionRollbackAfterStatementRollback) {
  TempDir dir;
  auto opened = Pager::Open(dir.file("r.db"), {});
  ASSERT_TRUE(opened.ok());
  Pager& pager = **opened;
  ASSERT_TRUE(pager.BeginWrite().ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(pager.Allocate().ok());
  ASSERT_TRUE(pager.Commit().ok());

  ASSERT_TRUE(pager.BeginWrite().ok());
  ASSERT_TRUE(pager.BeginStatement().ok());
  Stamp(pager, 3, 9);
  pager.EndStatement();
  ASSERT_TRUE(pager.BeginStatement().ok());
  Stamp(pager, 4, 9);
  ASSERT_TRUE(pager.RollbackStatement().ok());
  EXPECT_EQ(TagOf(pager, 3), 9);
  EXPECT_EQ(TagOf(pager, 4), 0);
  ASSERT_TRUE(pager.Rollback().ok());
  ASSERT_TRUE(pager.BeginRead().ok());
  EXPECT_EQ(TagOf(pager, 3), 0);
  ASSERT_TRUE(pager.EndRead().ok());
}

}  // namespace
}  // namespace engine
