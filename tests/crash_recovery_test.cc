// Crash safety of a large commit: a forked child commits through the
// engine's pager and is killed with SIGKILL after N file operations, for
// well over 100 values of N across the whole commit. Afterwards the file
// must hold exactly the state before or after the commit — whether the
// engine or the real sqlite3 recovers the hot journal — and pass sqlite3's
// integrity_check.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "engine/storage/pager.h"
#include "engine/storage/posix_env.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::SqliteDb;
using testing::TempDir;

std::string Snapshot(const std::string& path) {
  SqliteDb db(path, true);
  std::string out;
  for (auto& r : db.Query("SELECT a, b, c FROM t ORDER BY a")) {
    out += r[0] + "|" + r[1] + "|" + r[2] + ";";
  }
  return out;
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The child's commit turns database A into database B page by page: every
// page of A is overwritten with B's image and B's extra pages are appended.
// Run with a countdown of `ops` file operations before SIGKILL (0: none).
// Returns true when the child was killed, false when it committed.
bool CommitAToB(const std::string& a_path, const std::string& b_image, uint64_t ops) {
  pid_t pid = fork();
  if (pid == 0) {
    PagerOptions opts;
    opts.cache_pages = 32;  // forces spills in the middle of the commit
    auto pager = Pager::Open(a_path, opts);
    if (!pager.ok()) _exit(3);
    Pager& p = *pager.value();
    uint32_t ps = p.page_size();
    uint32_t b_pages = static_cast<uint32_t>(b_image.size() / ps);
    SetCrashAfterFileOps(ops);
    if (!p.BeginWrite().ok()) _exit(4);
    for (uint32_t pg = 1; pg <= b_pages; ++pg) {
      Result<PageRef> page = pg <= p.page_count() ? p.Get(pg) : p.Allocate();
      if (!page.ok() || !p.MakeWritable(*page).ok()) _exit(5);
      std::memcpy(page->mutable_data(), b_image.data() + uint64_t{pg - 1} * ps, ps);
    }
    if (!p.Commit().ok()) _exit(6);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return true;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "child failed with " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return false;
}

TEST(CrashRecoveryTest, KilledCommitLeavesBeforeOrAfterState) {
  TempDir dir;
  std::string a = dir.file("a.db"), b = dir.file("b.db");
  {
    SqliteDb db(a);
    ASSERT_TRUE(
        db.Exec("PRAGMA page_size=1024; CREATE TABLE t(a INTEGER PRIMARY KEY, b, c);"
                "CREATE INDEX tb ON t(b);"
                "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s WHERE i<1500) "
                "INSERT INTO t SELECT i, hex(randomblob(20)), i*3 FROM s;"))
        << db.error();
  }
  std::filesystem::copy_file(a, b);
  {
    // B: every row changed, more rows, so the commit rewrites every page
    // and grows the file.
    SqliteDb db(b);
    ASSERT_TRUE(
        db.Exec("UPDATE t SET b = hex(randomblob(20)), c = c + 1;"
                "WITH RECURSIVE s(i) AS (SELECT 1501 UNION ALL SELECT i+1 FROM s WHERE "
                "i<1700) INSERT INTO t SELECT i, hex(randomblob(20)), i FROM s;"))
        << db.error();
  }
  const std::string before = Snapshot(a), after = Snapshot(b);
  ASSERT_NE(before, after);
  const std::string a_image = ReadAll(a), b_image = ReadAll(b);
  ASSERT_GT(b_image.size(), a_image.size());

  // Count the file operations of a whole commit, then kill at 120+ points
  // spread over it (every point when the commit is short).
  std::string probe = dir.file("probe.db");
  std::filesystem::copy_file(a, probe);
  uint64_t total = 0;
  for (uint64_t n = 1; n < 100000; n *= 2) {
    std::filesystem::copy_file(a, probe, std::filesystem::copy_options::overwrite_existing);
    if (!CommitAToB(probe, b_image, n)) {
      total = n;
      break;
    }
  }
  ASSERT_GT(total, 0u);
  std::set<uint64_t> points;
  for (uint64_t n = 1; n <= total; n += std::max<uint64_t>(1, total / 130)) points.insert(n);
  ASSERT_GE(points.size(), 100u);

  int saw_before = 0, saw_after = 0, hot = 0;
  std::string db_path = dir.file("c.db");
  for (uint64_t n : points) {
    std::filesystem::copy_file(a, db_path, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::remove(JournalPath(db_path));
    bool killed = CommitAToB(db_path, b_image, n);
    hot += std::filesystem::exists(JournalPath(db_path));
    // Alternate who recovers: the engine on even kill points, sqlite3 on odd.
    if (n % 2 == 0) {
      auto pager = Pager::Open(db_path, {});
      ASSERT_TRUE(pager.ok()) << "kill point " << n << ": " << pager.status().ToString();
    }
    SqliteDb db(db_path);
    ASSERT_EQ(db.IntegrityCheck(), "ok") << "kill point " << n << (killed ? "" : " (committed)");
    std::string got = Snapshot(db_path);
    ASSERT_TRUE(got == before || got == after) << "kill point " << n << ": mixed state";
    saw_before += got == before;
    saw_after += got == after;
  }
  EXPECT_GT(saw_before, 0);
  EXPECT_GT(saw_after, 0);
  EXPECT_GT(hot, 0);
  std::printf("kill points: %zu over %llu file operations; before=%d after=%d hot journals=%d\n",
              points.size(), static_cast<unsigned long long>(total), saw_before, saw_after, hot);
}

}  // namespace
}  // namespace engine
