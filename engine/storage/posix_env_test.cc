#include "engine/storage/posix_env.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/storage/env.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::TempDir;

// The POSIX Env's failure paths, each one an error the pager reports rather
// than a crash or a silent success. (The simulated disk of the power-loss
// tests replaces this Env, so its failures are not reached there.)

void ExpectIOError(const Status& st, const std::string& text) {
  EXPECT_EQ(st.code(), Status::Code::kIOError) << st.ToString();
  EXPECT_NE(st.message().find(text), std::string::npos) << st.ToString();
}

TEST(PosixEnvTest, OpenNamesWhatItCouldNotOpen) {
  TempDir dir;
  auto missing = Env::Default()->Open(dir.file("missing.db"), File::Mode::kReadOnly);
  ASSERT_FALSE(missing.ok());
  ExpectIOError(missing.status(), "cannot open " + dir.file("missing.db") + ": No such file");

  auto no_dir = Env::Default()->Open(dir.file("no/such/dir.db"), File::Mode::kCreate);
  ASSERT_FALSE(no_dir.ok());
  ExpectIOError(no_dir.status(), "cannot open");

  // A directory opens read-only with open(2), but it is no database file.
  auto d = Env::Default()->Open(dir.path(), File::Mode::kReadOnly);
  ASSERT_FALSE(d.ok());
  ExpectIOError(d.status(), "not a regular file: " + dir.path());
}

TEST(PosixEnvTest, WritesThroughAReadOnlyFileFailWithTheirPath) {
  TempDir dir;
  const std::string path = dir.file("r.db");
  std::ofstream(path) << std::string(1024, 'x');
  auto f = Env::Default()->Open(path, File::Mode::kReadOnly);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  const char byte = 'y';
  ExpectIOError((*f)->WriteAt(0, &byte, 1), "write failed on " + path);
  ExpectIOError((*f)->Truncate(0), "truncate failed on " + path);
  auto size = (*f)->Size();
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 1024u);  // nothing changed
}

TEST(PosixEnvTest, ReadsPastTheEndAreZeroAndCounted) {
  TempDir dir;
  const std::string path = dir.file("short.db");
  std::ofstream(path) << "abc";
  auto f = Env::Default()->Open(path, File::Mode::kReadOnly);
  ASSERT_TRUE(f.ok());
  char buf[8];
  std::fill(buf, buf + sizeof buf, '?');
  size_t got = 99;
  ASSERT_TRUE((*f)->ReadAt(1, buf, sizeof buf, &got).ok());
  EXPECT_EQ(got, 2u);
  EXPECT_EQ(std::string(buf, 2), "bc");
  EXPECT_EQ(std::string(buf + 2, 6), std::string(6, '\0'));
  ASSERT_TRUE((*f)->ReadAt(100, buf, sizeof buf, &got).ok());
  EXPECT_EQ(got, 0u);
}

TEST(PosixEnvTest, DeleteAndSyncDirReportWhatTheyCouldNotDo) {
  TempDir dir;
  // A missing file is not an error (the journal may already be gone) ...
  EXPECT_TRUE(Env::Default()->Delete(dir.file("never-there")).ok());
  // ... but a name unlink(2) refuses is.
  const std::string sub = dir.file("sub");
  std::filesystem::create_directory(sub);
  ExpectIOError(Env::Default()->Delete(sub), "cannot delete " + sub);
  EXPECT_TRUE(std::filesystem::exists(sub));

  ExpectIOError(Env::Default()->SyncDir(dir.file("gone/x.db")),
                "cannot open directory " + dir.file("gone"));
  EXPECT_TRUE(Env::Default()->SyncDir(dir.file("x.db")).ok());
  // A bare name is in the working directory, "/x" in the root.
  EXPECT_TRUE(Env::Default()->SyncDir("x.db").ok());
  EXPECT_TRUE(Env::Default()->SyncDir("/x.db").ok());
}

TEST(PosixEnvTest, LocksMoveOnlyUpFromShared) {
  TempDir dir;
  auto f = Env::Default()->Open(dir.file("l.db"), File::Mode::kCreate);
  ASSERT_TRUE(f.ok());
  const Status st = (*f)->Lock(LockLevel::kReserved);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("lock upgrade without SHARED"), std::string::npos);
  EXPECT_EQ((*f)->lock_level(), LockLevel::kNone);

  ASSERT_TRUE((*f)->Lock(LockLevel::kShared).ok());
  ASSERT_TRUE((*f)->Lock(LockLevel::kExclusive).ok());  // through PENDING
  EXPECT_EQ((*f)->lock_level(), LockLevel::kExclusive);
  ASSERT_TRUE((*f)->Lock(LockLevel::kShared).ok());  // the downgrade
  EXPECT_EQ((*f)->lock_level(), LockLevel::kShared);
  ASSERT_TRUE((*f)->Lock(LockLevel::kNone).ok());
  EXPECT_EQ((*f)->lock_level(), LockLevel::kNone);
}

TEST(PosixEnvTest, TempFileHasNoName) {
  auto t = Env::Default()->OpenTemp();
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_FALSE(Env::Default()->Exists((*t)->path()));
  const char data[] = "spill";
  ASSERT_TRUE((*t)->WriteAt(0, data, sizeof data).ok());
  char back[sizeof data] = {};
  ASSERT_TRUE((*t)->ReadAt(0, back, sizeof back).ok());
  EXPECT_STREQ(back, "spill");
}

}  // namespace
}  // namespace engine
