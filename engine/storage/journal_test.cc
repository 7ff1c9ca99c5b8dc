#include "engine/storage/journal.h"

#include <gtest/gtest.h>

#include <vector>

#include "engine/testing/temp_dir.h"
#include "engine/util/coding.h"

namespace engine {
namespace {

TEST(JournalTest, ChecksumSamplesEvery200thByteFromTheEnd) {
  std::vector<uint8_t> page(1024, 0);
  EXPECT_EQ(JournalChecksum(7, page.data(), 1024), 7u);
  page[824] = 1;  // 1024-200
  page[624] = 2;
  page[24] = 3;
  page[0] = 100;  // never sampled: the loop stops at i > 0
  page[825] = 100;
  EXPECT_EQ(JournalChecksum(7, page.data(), 1024), 7u + 1 + 2 + 3);
}

TEST(JournalTest, SealedRecordsPlayBackAndTruncate) {
  testing::TempDir dir;
  std::string db_path = dir.file("d.db");
  const uint32_t ps = 512;
  auto db = Env::Default()->Open(db_path, File::Mode::kCreate);
  ASSERT_TRUE(db.ok());
  std::vector<uint8_t> page(ps);
  for (uint32_t pg = 1; pg <= 4; ++pg) {
    std::fill(page.begin(), page.end(), static_cast<uint8_t>(pg));
    ASSERT_TRUE((*db)->WriteAt((pg - 1) * ps, page.data(), ps).ok());
  }
  auto j = JournalWriter::Create(*Env::Default(), JournalPath(db_path), ps, 4);
  ASSERT_TRUE(j.ok());
  for (uint32_t pg : {2u, 3u}) {
    std::fill(page.begin(), page.end(), static_cast<uint8_t>(pg));
    ASSERT_TRUE((*j)->Append(pg, page.data()).ok());
  }
  // Unsealed: a hot playback must ignore the records.
  auto none = PlaybackJournal(*Env::Default(), **db, JournalPath(db_path), ps, /*hot=*/true);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0u);
  ASSERT_TRUE((*j)->Seal(true, true).ok());
  // Scribble on pages 2 and 3 and grow the file, as a commit would.
  std::fill(page.begin(), page.end(), 0xEE);
  for (uint32_t pg : {2u, 3u, 5u}) ASSERT_TRUE((*db)->WriteAt((pg - 1) * ps, page.data(), ps).ok());
  auto played = PlaybackJournal(*Env::Default(), **db, JournalPath(db_path), ps, /*hot=*/true);
  ASSERT_TRUE(played.ok()) << played.status().ToString();
  EXPECT_EQ(*played, 4u);
  EXPECT_EQ(*(*db)->Size(), 4u * ps);
  for (uint32_t pg = 1; pg <= 4; ++pg) {
    ASSERT_TRUE((*db)->ReadAt((pg - 1) * ps, page.data(), ps).ok());
    EXPECT_EQ(page[0], pg);
    EXPECT_EQ(page[ps - 1], pg);
  }
}

TEST(JournalTest, CorruptRecordStopsPlayback) {
  testing::TempDir dir;
  std::string db_path = dir.file("d.db");
  const uint32_t ps = 512;
  auto db = Env::Default()->Open(db_path, File::Mode::kCreate);
  std::vector<uint8_t> page(ps, 0x11);
  ASSERT_TRUE((*db)->WriteAt(0, page.data(), ps).ok());
  ASSERT_TRUE((*db)->WriteAt(ps, page.data(), ps).ok());
  {
    auto j = JournalWriter::Create(*Env::Default(), JournalPath(db_path), ps, 2);
    std::vector<uint8_t> orig(ps, 0x22);
    ASSERT_TRUE((*j)->Append(2, orig.data()).ok());
    ASSERT_TRUE((*j)->Seal(false, false).ok());
  }
  // Flip a sampled byte of the record image: the checksum no longer matches.
  auto jf = Env::Default()->Open(JournalPath(db_path), File::Mode::kReadWrite);
  uint8_t bad = 0x99;
  ASSERT_TRUE((*jf)->WriteAt(kJournalSectorSize + 4 + (ps - 200), &bad, 1).ok());
  auto played = PlaybackJournal(*Env::Default(), **db, JournalPath(db_path), ps, true);
  ASSERT_TRUE(played.ok());
  ASSERT_TRUE((*db)->ReadAt(ps, page.data(), ps).ok());
  EXPECT_EQ(page[0], 0x11);  // not overwritten by the corrupt record
}

}  // namespace
}  // namespace engine
