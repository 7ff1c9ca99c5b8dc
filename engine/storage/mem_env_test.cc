#include "engine/storage/mem_env.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/storage/pager.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

std::string Read(File& f, uint64_t off, size_t n, size_t* got = nullptr) {
  std::string s(n, '?');
  EXPECT_TRUE(f.ReadAt(off, s.data(), n, got).ok());
  return s;
}

void Write(File& f, uint64_t off, const std::string& s) {
  ASSERT_TRUE(f.WriteAt(off, s.data(), s.size()).ok());
}

TEST(MemEnvTest, BytesAcrossChunksAndPastTheEnd) {
  auto env = NewMemEnv();
  EXPECT_EQ(env->kind(), Env::Kind::kMemory);
  auto f = env->Open("db", File::Mode::kCreate);
  ASSERT_TRUE(f.ok());
  // A write that straddles the 64 KiB chunk boundary, far past the end.
  const std::string text(1000, 'x');
  Write(**f, 65536 - 300, text);
  EXPECT_EQ(*(*f)->Size(), 65536u - 300 + 1000);
  size_t got = 0;
  EXPECT_EQ(Read(**f, 65536 - 300, 1000, &got), text);
  EXPECT_EQ(got, 1000u);
  // The gap before it reads as zero; so do bytes past the end, counted out.
  EXPECT_EQ(Read(**f, 0, 16), std::string(16, '\0'));
  EXPECT_EQ(Read(**f, 65536 + 600, 200, &got), std::string(100, 'x') + std::string(100, '\0'));
  EXPECT_EQ(got, 100u);

  // Shrinking then growing again shows zeros, not the old bytes.
  ASSERT_TRUE((*f)->Truncate(65536 - 100).ok());
  EXPECT_EQ(*(*f)->Size(), 65536u - 100);
  ASSERT_TRUE((*f)->Truncate(65536 + 1000).ok());
  EXPECT_EQ(Read(**f, 65536 - 300, 400), std::string(200, 'x') + std::string(200, '\0'));
  ASSERT_TRUE((*f)->Truncate(0).ok());
  EXPECT_EQ(*(*f)->Size(), 0u);
  EXPECT_EQ(Read(**f, 0, 4, &got), std::string(4, '\0'));
  EXPECT_EQ(got, 0u);
  // An empty write does not grow the file, as pwrite does not.
  ASSERT_TRUE((*f)->WriteAt(100, "", 0).ok());
  EXPECT_EQ(*(*f)->Size(), 0u);
}

TEST(MemEnvTest, NamesAndHandles) {
  auto env = NewMemEnv();
  EXPECT_FALSE(env->Exists("db"));
  EXPECT_FALSE(env->Open("db", File::Mode::kReadWrite).ok());
  EXPECT_FALSE(env->Open("db", File::Mode::kReadOnly).ok());
  auto a = env->Open("db", File::Mode::kCreate);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(env->Exists("db"));
  Write(**a, 0, "hello");
  // A second handle on the name sees the same bytes; a read-only one
  // cannot change them.
  auto b = env->Open("db", File::Mode::kReadOnly);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Read(**b, 0, 5), "hello");
  EXPECT_FALSE((*b)->WriteAt(0, "x", 1).ok());
  EXPECT_FALSE((*b)->Truncate(0).ok());
  // Deleting the name leaves the open handles their bytes, as unlink does.
  ASSERT_TRUE(env->Delete("db").ok());
  EXPECT_FALSE(env->Exists("db"));
  EXPECT_EQ(Read(**b, 0, 5), "hello");
  auto c = env->Open("db", File::Mode::kCreate);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*(*c)->Size(), 0u);
  EXPECT_TRUE(env->Delete("never").ok());
  // Locks only record the level: nothing else can hold one.
  EXPECT_TRUE((*a)->Lock(LockLevel::kExclusive).ok());
  EXPECT_TRUE((*c)->Lock(LockLevel::kExclusive).ok());
  EXPECT_EQ((*a)->lock_level(), LockLevel::kExclusive);
  EXPECT_FALSE(*(*c)->OtherHasReserved());
  EXPECT_TRUE((*a)->Sync().ok());
  EXPECT_TRUE(env->SyncDir("db").ok());
  // A scratch file has no name and is its own.
  auto t = env->OpenTemp();
  ASSERT_TRUE(t.ok());
  Write(**t, 0, "tmp");
  EXPECT_EQ(Read(**t, 0, 3), "tmp");
  EXPECT_EQ(Read(**c, 0, 3), std::string(3, '\0'));
}

// The pager over an in-memory Env: a database, its journal and a rollback,
// none of it on disk.
TEST(MemEnvTest, PagerRunsOverIt) {
  auto env = NewMemEnv();
  PagerOptions o;
  o.env = env.get();
  auto pager = Pager::Open("m", o);
  ASSERT_TRUE(pager.ok()) << pager.status().ToString();
  Pager& p = **pager;
  EXPECT_EQ(p.storage_kind(), Env::Kind::kMemory);
  ASSERT_TRUE(p.BeginWrite().ok());
  auto page = p.Allocate();
  ASSERT_TRUE(page.ok());
  std::memset(page->mutable_data(), 0xab, p.page_size());
  page->Release();
  ASSERT_TRUE(p.Commit().ok());
  EXPECT_EQ(p.page_count(), 2u);
  EXPECT_FALSE(env->Exists("m-journal"));

  ASSERT_TRUE(p.BeginWrite().ok());
  auto again = p.Get(2);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(p.MakeWritable(*again).ok());
  std::memset(again->mutable_data(), 0, p.page_size());
  again->Release();
  EXPECT_TRUE(env->Exists("m-journal"));
  ASSERT_TRUE(p.Rollback().ok());
  EXPECT_FALSE(env->Exists("m-journal"));
  auto back = p.Get(2);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->data()[0], 0xab);
  EXPECT_EQ(back->data()[p.page_size() - 1], 0xab);
}

// The temporary-file Env leaves no name in the temporary folder, open or
// closed: each of its files is unlinked when made.
TEST(TempFileEnvTest, LeavesNothingInTheTemporaryFolder) {
  testing::TempDir tmp;
  std::optional<std::string> old;
  if (const char* t = getenv("TMPDIR")) old = t;
  setenv("TMPDIR", tmp.path().c_str(), 1);
  {
    auto env = NewTempFileEnv(Env::Default());
    EXPECT_EQ(env->kind(), Env::Kind::kTemporary);
    auto f = env->Open("", File::Mode::kCreate);
    ASSERT_TRUE(f.ok());
    Write(**f, 70000, "far");
    EXPECT_EQ(Read(**f, 70000, 3), "far");
    EXPECT_EQ(*(*f)->Size(), 70003u);
    auto j = env->Open("-journal", File::Mode::kCreate);
    ASSERT_TRUE(j.ok());
    Write(**j, 0, "journal");
    EXPECT_TRUE(env->Exists("-journal"));
    auto same = env->Open("-journal", File::Mode::kReadOnly);
    ASSERT_TRUE(same.ok());
    EXPECT_EQ(Read(**same, 0, 7), "journal");
    EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  }
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  if (old) {
    setenv("TMPDIR", old->c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
}

}  // namespace
}  // namespace engine
