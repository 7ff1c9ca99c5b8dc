#include "engine/storage/pager.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "engine/storage/journal.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"
#include "engine/util/coding.h"

namespace engine {
namespace {

using testing::SqliteDb;
using testing::TempDir;

std::unique_ptr<Pager> MustOpen(const std::string& path, PagerOptions opts = {}) {
  auto p = Pager::Open(path, opts);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? std::move(p).value() : nullptr;
}

// Fills a page with a pattern derived from (pgno, salt) past byte `from`.
void Fill(uint8_t* d, uint32_t size, uint32_t pgno, uint32_t salt, uint32_t from = 0) {
  for (uint32_t i = from; i < size; ++i) d[i] = static_cast<uint8_t>(pgno * 31 + salt + i * 7);
}
bool Matches(const uint8_t* d, uint32_t size, uint32_t pgno, uint32_t salt, uint32_t from = 0) {
  for (uint32_t i = from; i < size; ++i) {
    if (d[i] != static_cast<uint8_t>(pgno * 31 + salt + i * 7)) return false;
  }
  return true;
}

TEST(PagerTest, NewDatabaseIsAValidEmptySqliteFile) {
  TempDir dir;
  std::string path = dir.file("new.db");
  {
    auto pager = MustOpen(path);
    ASSERT_TRUE(pager);
    EXPECT_EQ(pager->page_count(), 1u);
    EXPECT_EQ(pager->page_size(), 4096u);
  }
  SqliteDb db(path);
  ASSERT_TRUE(db.ok()) << db.error();
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(db.Query("PRAGMA page_count")[0][0], "1");
  EXPECT_EQ(db.Query("PRAGMA encoding")[0][0], "UTF-8");
  ASSERT_TRUE(db.Exec("CREATE TABLE t(a); INSERT INTO t VALUES (42);")) << db.error();
}

TEST(PagerTest, ReadsWhatSqliteWrote) {
  TempDir dir;
  std::string path = dir.file("s.db");
  {
    SqliteDb db(path);
    ASSERT_TRUE(db.Exec("PRAGMA page_size=1024; CREATE TABLE t(a); INSERT INTO t VALUES (1);"));
  }
  auto pager = MustOpen(path);
  ASSERT_TRUE(pager);
  EXPECT_EQ(pager->page_size(), 1024u);
  EXPECT_EQ(pager->page_count(), 2u);
  EXPECT_EQ(pager->schema_cookie(), 1u);
  ASSERT_TRUE(pager->BeginRead().ok());
  auto p2 = pager->Get(2);
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(p2->data()[0], 13);  // a table leaf
  EXPECT_FALSE(pager->Get(3).ok());
  EXPECT_FALSE(pager->Get(0).ok());
}

TEST(PagerTest, CommitPersistsAndRollbackRestores) {
  TempDir dir;
  std::string path = dir.file("c.db");
  auto pager = MustOpen(path);
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (int i = 0; i < 10; ++i) {
    auto p = pager->Allocate();
    ASSERT_TRUE(p.ok());
    Fill(p->mutable_data(), 4096, p->pgno(), 1);
  }
  ASSERT_TRUE(pager->Commit().ok());
  EXPECT_EQ(pager->page_count(), 11u);
  EXPECT_FALSE(Env::Default()->Exists(JournalPath(path)));

  ASSERT_TRUE(pager->BeginWrite().ok());
  for (uint32_t pg = 2; pg <= 11; ++pg) {
    auto p = pager->Get(pg);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(pager->MakeWritable(*p).ok());
    Fill(p->mutable_data(), 4096, pg, 2);
  }
  ASSERT_TRUE(pager->Allocate().ok());
  EXPECT_EQ(pager->page_count(), 12u);
  EXPECT_TRUE(Env::Default()->Exists(JournalPath(path)));
  ASSERT_TRUE(pager->Rollback().ok());
  EXPECT_EQ(pager->page_count(), 11u);
  EXPECT_FALSE(Env::Default()->Exists(JournalPath(path)));
  for (uint32_t pg = 2; pg <= 11; ++pg) {
    auto p = pager->Get(pg);
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(Matches(p->data(), 4096, pg, 1)) << "page " << pg;
  }
  pager.reset();
  auto again = MustOpen(path);
  for (uint32_t pg = 2; pg <= 11; ++pg) {
    EXPECT_TRUE(Matches(again->Get(pg)->data(), 4096, pg, 1)) << "page " << pg;
  }
}

TEST(PagerTest, CacheStaysBoundedAndSpillsDirtyPagesSafely) {
  TempDir dir;
  std::string path = dir.file("b.db");
  PagerOptions opts;
  opts.cache_pages = 16;
  opts.page_size = 1024;
  auto pager = MustOpen(path, opts);
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (int i = 0; i < 200; ++i) {
    auto p = pager->Allocate();
    ASSERT_TRUE(p.ok());
    Fill(p->mutable_data(), 1024, p->pgno(), 5);
  }
  ASSERT_TRUE(pager->Commit().ok());
  EXPECT_LE(pager->cached_pages(), 16u);

  // A transaction touching far more pages than the cache holds spills, and
  // its rollback still restores every page.
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (uint32_t pg = 2; pg <= 201; ++pg) {
    auto p = pager->Get(pg);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(pager->MakeWritable(*p).ok());
    Fill(p->mutable_data(), 1024, pg, 9);
  }
  EXPECT_LE(pager->cached_pages(), 16u);
  ASSERT_TRUE(pager->Rollback().ok());
  for (uint32_t pg = 2; pg <= 201; ++pg) {
    auto p = pager->Get(pg);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(Matches(p->data(), 1024, pg, 5)) << "page " << pg;
  }
  // And a spilled transaction commits correctly.
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (uint32_t pg = 2; pg <= 201; ++pg) {
    auto p = pager->Get(pg);
    ASSERT_TRUE(pager->MakeWritable(*p).ok());
    Fill(p->mutable_data(), 1024, pg, 11);
  }
  ASSERT_TRUE(pager->Commit().ok());
  pager.reset();
  auto again = MustOpen(path, opts);
  for (uint32_t pg = 2; pg <= 201; ++pg) {
    ASSERT_TRUE(Matches(again->Get(pg)->data(), 1024, pg, 11)) << "page " << pg;
  }
}

TEST(PagerTest, FreedPagesFormAFreelistSqliteAccepts) {
  TempDir dir;
  std::string path = dir.file("f.db");
  PagerOptions opts;
  opts.page_size = 512;  // 120 leaves per trunk: several trunks
  auto pager = MustOpen(path, opts);
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (int i = 0; i < 400; ++i) ASSERT_TRUE(pager->Allocate().ok());
  for (uint32_t pg = 2; pg <= 401; ++pg) ASSERT_TRUE(pager->Free(pg).ok());
  ASSERT_TRUE(pager->Commit().ok());
  EXPECT_EQ(pager->freelist_count(), 400u);
  {
    SqliteDb db(path, true);
    EXPECT_EQ(db.IntegrityCheck(), "ok");
    EXPECT_EQ(db.Query("PRAGMA freelist_count")[0][0], "400");
  }
  // Allocation reuses the freelist before growing the file.
  ASSERT_TRUE(pager->BeginWrite().ok());
  for (int i = 0; i < 400; ++i) {
    auto p = pager->Allocate();
    ASSERT_TRUE(p.ok());
    EXPECT_LE(p->pgno(), 401u);
  }
  EXPECT_EQ(pager->page_count(), 401u);
  EXPECT_EQ(pager->freelist_count(), 0u);
  for (uint32_t pg = 2; pg <= 401; ++pg) ASSERT_TRUE(pager->Free(pg).ok());
  ASSERT_TRUE(pager->Commit().ok());
  SqliteDb db(path, true);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
}

TEST(PagerTest, LockBytePageIsNeverHandedOut) {
  TempDir dir;
  auto pager = MustOpen(dir.file("l.db"));
  EXPECT_EQ(pager->lock_byte_page(), 0x40000000u / 4096 + 1);
  EXPECT_FALSE(pager->Get(pager->lock_byte_page()).ok());
}

// Writes outside a write transaction are refused, and page numbers that
// cannot be freed (page 1, past the end, the lock-byte page) are corruption,
// never a freelist that sqlite3 would then find broken.
TEST(PagerTest, MisusedWritesAndImpossibleFreesAreErrors) {
  TempDir dir;
  auto pager = MustOpen(dir.file("m.db"));
  auto one = pager->Get(1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(pager->MakeWritable(*one).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(pager->Allocate().status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(pager->Free(2).code(), Status::Code::kInvalidArgument);
  one->Release();
  ASSERT_TRUE(pager->BeginWrite().ok());
  ASSERT_TRUE(pager->Allocate().ok());  // page 2
  for (uint32_t bad : {1u, 3u, pager->lock_byte_page()}) {
    Status st = pager->Free(bad);
    EXPECT_TRUE(st.IsCorruption()) << bad << ": " << st.ToString();
    EXPECT_NE(st.message().find("cannot free"), std::string::npos) << st.ToString();
  }
  ASSERT_TRUE(pager->Rollback().ok());
}

// A freelist trunk that claims more leaves than fit on it, or names a leaf
// past the end of the file, is reported when allocation reads it; a page
// handed out from a corrupt freelist would overwrite live data.
TEST(PagerTest, CorruptFreelistIsReportedOnAllocation) {
  TempDir dir;
  const std::string path = dir.file("fl.db");
  PagerOptions opts;
  opts.page_size = 512;
  uint32_t trunk = 0;
  {
    auto pager = MustOpen(path, opts);
    ASSERT_TRUE(pager->BeginWrite().ok());
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(pager->Allocate().ok());
    for (uint32_t pg = 2; pg <= 6; ++pg) ASSERT_TRUE(pager->Free(pg).ok());
    ASSERT_TRUE(pager->Commit().ok());
    ASSERT_EQ(pager->freelist_count(), 5u);
    auto one = pager->Get(1);
    ASSERT_TRUE(one.ok());
    trunk = get_u32(one->data() + hdr::kFreelistTrunk);
  }
  ASSERT_GE(trunk, 2u);
  // Rewrites four bytes of the trunk page at `at`, big-endian.
  auto patch_trunk = [&](uint32_t at, uint32_t v) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>((trunk - 1) * 512 + at));
    uint8_t b[4];
    put_u32(b, v);
    f.write(reinterpret_cast<const char*>(b), 4);
  };
  auto allocate = [&]() {
    auto pager = MustOpen(path, opts);
    EXPECT_TRUE(pager->BeginWrite().ok());
    Status st = pager->Allocate().status();
    (void)pager->Rollback();
    return st;
  };
  ASSERT_TRUE(allocate().ok());  // the file as written is sound

  patch_trunk(4, 1000);  // 512-byte trunks hold at most 126 leaves
  Status st = allocate();
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_NE(st.message().find("claims 1000 leaves"), std::string::npos) << st.ToString();

  patch_trunk(4, 1);
  patch_trunk(8, 999);  // the one leaf, far past the 6-page file
  st = allocate();
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_NE(st.message().find("freelist leaf 999 out of range"), std::string::npos)
      << st.ToString();
}

TEST(PagerTest, RejectsFilesThatAreNotDatabases) {
  TempDir dir;
  std::string junk = dir.file("junk.db");
  std::ofstream(junk) << std::string(4096, 'x');
  auto p = Pager::Open(junk, {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("not a database"), std::string::npos);

  std::string tiny = dir.file("tiny.db");
  std::ofstream(tiny) << "SQLite format 3";
  EXPECT_FALSE(Pager::Open(tiny, {}).ok());

  PagerOptions ro;
  ro.read_only = true;
  EXPECT_TRUE(Pager::Open(dir.file("missing.db"), ro).status().IsNotFound());

  // A valid header with a bad page size.
  std::string bad = dir.file("bad.db");
  {
    SqliteDb db(bad);
    ASSERT_TRUE(db.Exec("CREATE TABLE t(a)"));
  }
  {
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(16);
    f.put(0x03).put(0x00);  // 768: not a power of two
  }
  auto b = Pager::Open(bad, {});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.status().IsCorruption());
}

TEST(PagerTest, TruncatedFileReportsCorruptionOnRead) {
  TempDir dir;
  std::string path = dir.file("t.db");
  {
    SqliteDb db(path);
    ASSERT_TRUE(
        db.Exec("CREATE TABLE t(a); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL "
                "SELECT i+1 FROM c WHERE i<2000) INSERT INTO t SELECT randomblob(100) "
                "FROM c;"));
  }
  ASSERT_EQ(truncate(path.c_str(), 4096 * 3), 0);
  auto pager = MustOpen(path);
  ASSERT_TRUE(pager);
  ASSERT_GT(pager->page_count(), 3u);
  auto p = pager->Get(pager->page_count());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("beyond the end"), std::string::npos);
}

// A database sqlite3 wrote, with `edit` applied to its first 100 bytes.
std::string DatabaseWithHeader(const TempDir& dir, const std::string& name,
                               const std::function<void(uint8_t*)>& edit,
                               const std::string& pragmas = "") {
  const std::string path = dir.file(name);
  {
    SqliteDb db(path);
    EXPECT_TRUE(db.Exec(pragmas + "CREATE TABLE t(a); INSERT INTO t VALUES (1);")) << db.error();
  }
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  uint8_t header[kDbHeaderSize];
  f.read(reinterpret_cast<char*>(header), sizeof header);
  edit(header);
  f.seekp(0);
  f.write(reinterpret_cast<const char*>(header), sizeof header);
  return path;
}

// Each header field that sqlite3 itself refuses (or that this engine does
// not support) gives its own error, never a database read with the wrong
// layout.
TEST(PagerTest, HeaderFieldsItCannotHonourAreRefusedByName) {
  TempDir dir;
  struct Case {
    const char* name;
    std::function<void(uint8_t*)> edit;
    Status::Code code;
    const char* message;
    std::string pragmas;
  };
  const std::vector<Case> cases = {
      {"wal_write", [](uint8_t* h) { h[hdr::kWriteVersion] = 2; }, Status::Code::kNotSupported,
       "WAL-mode database", ""},
      {"wal_read", [](uint8_t* h) { h[hdr::kReadVersion] = 2; }, Status::Code::kNotSupported,
       "WAL-mode database", ""},
      {"future_version", [](uint8_t* h) { h[hdr::kReadVersion] = 3; }, Status::Code::kNotSupported,
       "unknown file format read version", ""},
      // 512-byte pages with 33 reserved bytes leave 479 usable: below SQLite's minimum of 480.
      {"reserved", [](uint8_t* h) { h[hdr::kReserved] = 33; }, Status::Code::kCorruption,
       "reserved space leaves too little room", "PRAGMA page_size=512;"},
      {"max_fraction", [](uint8_t* h) { h[21] = 65; }, Status::Code::kCorruption,
       "invalid payload fractions", ""},
      {"min_fraction", [](uint8_t* h) { h[22] = 31; }, Status::Code::kCorruption,
       "invalid payload fractions", ""},
      {"leaf_fraction", [](uint8_t* h) { h[23] = 0; }, Status::Code::kCorruption,
       "invalid payload fractions", ""},
      {"utf16le", [](uint8_t* h) { put_u32(h + hdr::kTextEncoding, 2); },
       Status::Code::kNotSupported, "only UTF-8 databases are supported", ""},
  };
  for (const Case& c : cases) {
    const std::string path =
        DatabaseWithHeader(dir, std::string(c.name) + ".db", c.edit, c.pragmas);
    auto p = Pager::Open(path, {});
    ASSERT_FALSE(p.ok()) << c.name;
    EXPECT_EQ(p.status().code(), c.code) << c.name << ": " << p.status().ToString();
    EXPECT_NE(p.status().message().find(c.message), std::string::npos)
        << c.name << ": " << p.status().ToString();
  }
  // The same edits one byte short of the limit are accepted: 32 reserved bytes of 512.
  const std::string ok_reserved = DatabaseWithHeader(
      dir, "reserved_ok.db", [](uint8_t* h) { h[hdr::kReserved] = 32; }, "PRAGMA page_size=512;");
  EXPECT_TRUE(Pager::Open(ok_reserved, {}).ok());
}

// SQLite trusts the in-header page count only when "version-valid-for"
// matches the change counter (a legacy writer leaves it stale); otherwise the
// file size decides. A header that counts no pages at all is corrupt.
TEST(PagerTest, StaleInHeaderPageCountYieldsToTheFileSize) {
  TempDir dir;
  const std::string stale = DatabaseWithHeader(dir, "stale.db", [](uint8_t* h) {
    put_u32(h + hdr::kPageCount, 999);
    put_u32(h + hdr::kVersionValidFor, get_u32(h + hdr::kChangeCounter) + 1);
  });
  const uint64_t pages = std::filesystem::file_size(stale) / 4096;
  ASSERT_GE(pages, 2u);
  auto pager = MustOpen(stale);
  ASSERT_TRUE(pager);
  EXPECT_EQ(pager->page_count(), pages);

  const std::string header_only = dir.file("header_only.db");
  {
    const std::string src = DatabaseWithHeader(dir, "src.db", [](uint8_t* h) {
      put_u32(h + hdr::kPageCount, 0);  // untrusted: the size decides, and 100 bytes is no page
    });
    std::filesystem::copy_file(src, header_only);
    std::filesystem::resize_file(header_only, kDbHeaderSize);
  }
  auto p = Pager::Open(header_only, {});
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(p.status().IsCorruption()) << p.status().ToString();
  EXPECT_NE(p.status().message().find("database header with no pages"), std::string::npos);
}

TEST(PagerTest, OptionsThatCannotMakeADatabaseAreRefused) {
  TempDir dir;
  PagerOptions odd;
  odd.page_size = 1000;
  auto p = Pager::Open(dir.file("odd.db"), odd);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(p.status().message().find("power of two in [512, 65536]"), std::string::npos);
  EXPECT_FALSE(Env::Default()->Exists(dir.file("odd.db")));

  // An empty file cannot be initialised read-only.
  const std::string empty = dir.file("empty.db");
  std::ofstream(empty).close();
  PagerOptions ro;
  ro.read_only = true;
  auto e = Pager::Open(empty, ro);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(e.status().message().find("empty database file opened read-only"), std::string::npos);
}

// A sealed rollback journal beside a 1024-byte-page database, holding the
// original image of page 1; then page 1 is overwritten (with `page1`).
void LeaveHotJournal(const std::string& path, const std::vector<uint8_t>& page1,
                     uint32_t journal_page_size = 1024) {
  auto db = Env::Default()->Open(path, File::Mode::kReadWrite);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  std::vector<uint8_t> orig(journal_page_size);
  ASSERT_TRUE((*db)->ReadAt(0, orig.data(), orig.size()).ok());
  auto size = (*db)->Size();
  ASSERT_TRUE(size.ok());
  auto j = JournalWriter::Create(*Env::Default(), JournalPath(path), journal_page_size,
                                 static_cast<uint32_t>(*size / 1024));
  ASSERT_TRUE(j.ok()) << j.status().ToString();
  ASSERT_TRUE((*j)->Append(1, orig.data()).ok());
  ASSERT_TRUE((*j)->Seal(true, true).ok());
  ASSERT_TRUE((*db)->WriteAt(0, page1.data(), page1.size()).ok());
}

std::string SmallDatabase(const TempDir& dir, const std::string& name) {
  const std::string path = dir.file(name);
  SqliteDb db(path);
  EXPECT_TRUE(
      db.Exec("PRAGMA page_size=1024; CREATE TABLE t(a INTEGER PRIMARY KEY, b);"
              "INSERT INTO t VALUES (1, 'one'), (2, 'two');"))
      << db.error();
  return path;
}

std::string Snapshot(const std::string& path);

// sqlite3 may VACUUM the file to another page size between two of this
// pager's reads: every cached frame then has the wrong size and must go, and
// pages are read at the new size.
TEST(PagerTest, PageSizeChangedByAnotherConnectionIsFollowed) {
  TempDir dir;
  const std::string path = SmallDatabase(dir, "vacuum.db");
  auto pager = MustOpen(path);
  ASSERT_TRUE(pager);
  ASSERT_TRUE(pager->BeginRead().ok());
  {
    auto p = pager->Get(2);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
  }
  ASSERT_TRUE(pager->EndRead().ok());
  EXPECT_EQ(pager->page_size(), 1024u);
  {
    SqliteDb db(path);
    ASSERT_TRUE(db.Exec("PRAGMA page_size=4096; VACUUM;")) << db.error();
  }
  ASSERT_TRUE(pager->BeginRead().ok());
  EXPECT_EQ(pager->page_size(), 4096u);
  auto p = pager->Get(2);  // t's root, a table leaf holding both rows
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->data()[0], 0x0d);
  EXPECT_EQ(get_u16(p->data() + 3), 2u);
  p->Release();
  ASSERT_TRUE(pager->EndRead().ok());
}

// A read-only open must not play back (it would write), nor read the
// half-written pages as if they were the database: it says Busy, and a
// read-write open then recovers.
TEST(PagerCrashTest, HotJournalIsNotReadThroughByAReadOnlyOpen) {
  TempDir dir;
  const std::string path = SmallDatabase(dir, "hot.db");
  const std::string before = Snapshot(path);
  std::vector<uint8_t> scribbled(1024);
  {
    auto db = Env::Default()->Open(path, File::Mode::kReadOnly);
    ASSERT_TRUE((*db)->ReadAt(0, scribbled.data(), scribbled.size()).ok());
  }
  put_u32(scribbled.data() + hdr::kChangeCounter, 12345);  // a commit in flight
  LeaveHotJournal(path, scribbled);
  PagerOptions ro;
  ro.read_only = true;
  auto p = Pager::Open(path, ro);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), Status::Code::kBusy) << p.status().ToString();
  EXPECT_NE(p.status().message().find("hot journal needs recovery"), std::string::npos);
  EXPECT_TRUE(Env::Default()->Exists(JournalPath(path)));

  ASSERT_TRUE(MustOpen(path));
  EXPECT_FALSE(Env::Default()->Exists(JournalPath(path)));
  EXPECT_EQ(Snapshot(path), before);
}

// A power cut that tore page 1 leaves no usable page size in the database
// header: recovery takes the page size from the journal and restores page 1.
TEST(PagerCrashTest, TornFirstPageIsRestoredWithTheJournalsPageSize) {
  TempDir dir;
  const std::string path = SmallDatabase(dir, "torn.db");
  const std::string before = Snapshot(path);
  LeaveHotJournal(path, std::vector<uint8_t>(1024, 0));
  ASSERT_TRUE(MustOpen(path));
  EXPECT_FALSE(Env::Default()->Exists(JournalPath(path)));
  SqliteDb db(path);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(Snapshot(path), before);
}

// A journal written for another page size cannot be played into this
// database: refused as corrupt, and left in place for sqlite3 or a person.
TEST(PagerCrashTest, JournalOfAnotherPageSizeIsRefused) {
  TempDir dir;
  const std::string path = SmallDatabase(dir, "mismatch.db");
  std::vector<uint8_t> page1(1024);
  {
    auto db = Env::Default()->Open(path, File::Mode::kReadOnly);
    ASSERT_TRUE((*db)->ReadAt(0, page1.data(), page1.size()).ok());
  }
  LeaveHotJournal(path, page1, /*journal_page_size=*/512);
  auto p = Pager::Open(path, {});
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(p.status().IsCorruption()) << p.status().ToString();
  EXPECT_NE(p.status().message().find("journal page size 512 differs from the database's 1024"),
            std::string::npos)
      << p.status().ToString();
  EXPECT_TRUE(Env::Default()->Exists(JournalPath(path)));
}

std::string Snapshot(const std::string& path) {
  SqliteDb db(path, true);
  std::string out;
  for (auto& r : db.Query("SELECT a, b FROM t ORDER BY a")) out += r[0] + "|" + r[1] + ";";
  return out;
}

TEST(PagerCrashTest, EngineRecoversAHotJournalLeftBySqlite) {
  TempDir dir;
  std::string path = dir.file("s.db");
  {
    SqliteDb db(path);
    ASSERT_TRUE(
        db.Exec("PRAGMA page_size=1024; CREATE TABLE t(a INTEGER PRIMARY KEY, b);"
                "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE "
                "i<3000) INSERT INTO t SELECT i, hex(randomblob(40)) FROM c;"));
  }
  std::string before = Snapshot(path);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // A tiny cache forces sqlite3 to write changed pages into the database
    // before commit; dying then leaves a hot journal.
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "PRAGMA cache_size=2; BEGIN; UPDATE t SET b = 'gone';", nullptr, nullptr,
                 nullptr);
    raise(SIGKILL);
    _exit(1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(Env::Default()->Exists(JournalPath(path)));
  {
    auto pager = MustOpen(path);
    ASSERT_TRUE(pager);
  }
  EXPECT_FALSE(Env::Default()->Exists(JournalPath(path)));
  SqliteDb db(path);
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  EXPECT_EQ(Snapshot(path), before);
}

}  // namespace
}  // namespace engine
