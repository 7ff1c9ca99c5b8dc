// Statements cost what sqlite3's cost in file operations: one that names no
// table (SELECT 1 + 1) is prepared and run without a lock, a header read or
// a hot-journal check, as sqlite3's program without OP_Transaction is; a
// statement is prepared against the catalog the connection has, and a
// schema another connection changed is still seen — by the prepare that
// fails on the old catalog and by the run that finds the cookie moved.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "engine/database.h"
#include "engine/statement.h"
#include "engine/storage/env.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::SqliteDb;
using testing::TempDir;

// The POSIX Env, counting what reaches the file system: reads, lock
// changes and name look-ups (the hot-journal check).
class CountingEnv final : public Env {
 public:
  struct Counts {
    int reads = 0;
    int locks = 0;
    int exists = 0;
    int total() const { return reads + locks + exists; }
  };
  Counts counts;

  Result<std::unique_ptr<File>> Open(const std::string& path, File::Mode mode) override {
    ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<File> f, base_->Open(path, mode));
    return std::unique_ptr<File>(new CountingFile(std::move(f), &counts));
  }
  Result<std::unique_ptr<File>> OpenTemp() override { return base_->OpenTemp(); }
  bool Exists(const std::string& path) override {
    ++counts.exists;
    return base_->Exists(path);
  }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Status SyncDir(const std::string& path) override { return base_->SyncDir(path); }

 private:
  class CountingFile final : public File {
   public:
    CountingFile(std::unique_ptr<File> f, Counts* c) : File(f->path()), f_(std::move(f)), c_(c) {}
    Status ReadAt(uint64_t off, void* buf, size_t n, size_t* got) override {
      ++c_->reads;
      return f_->ReadAt(off, buf, n, got);
    }
    Status WriteAt(uint64_t off, const void* buf, size_t n) override {
      return f_->WriteAt(off, buf, n);
    }
    Status Sync() override { return f_->Sync(); }
    Status Truncate(uint64_t size) override { return f_->Truncate(size); }
    Result<uint64_t> Size() const override { return f_->Size(); }
    Status Lock(LockLevel level) override {
      ++c_->locks;
      Status st = f_->Lock(level);
      lock_ = f_->lock_level();
      return st;
    }
    Result<bool> OtherHasReserved() const override { return f_->OtherHasReserved(); }

   private:
    std::unique_ptr<File> f_;
    Counts* c_;
  };
  Env* base_ = Env::Default();
};

// Prepares and steps one statement to its end; its first column's text.
std::string RunSql(Database& db, const std::string& sql) {
  auto st = db.Prepare(sql);
  if (!st.ok()) return "error: " + st.status().message();
  std::string out;
  for (;;) {
    auto row = (*st)->Step();
    if (!row.ok()) return "error: " + row.status().message();
    if (!*row) break;
    out += std::string((*st)->column_text(0)) + ";";
  }
  return out;
}

class TablelessStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SqliteDb db(path());
    ASSERT_TRUE(db.Exec("CREATE TABLE t(a); INSERT INTO t VALUES(1), (2);"));
  }
  std::string path() const { return dir_.file("t.db"); }
  std::unique_ptr<Database> Open() {
    DatabaseOptions opts;
    opts.env = &env_;
    auto db = Database::Open(path(), opts);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }

  TempDir dir_;
  CountingEnv env_;
};

TEST_F(TablelessStatementTest, NoFileOperationWithoutATable) {
  auto db = Open();
  ASSERT_TRUE(db);
  env_.counts = {};
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(RunSql(*db, "SELECT " + std::to_string(i) + " + 1"), std::to_string(i + 1) + ";");
  }
  ASSERT_EQ(RunSql(*db,
                   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3)"
                   " SELECT sum(x) FROM (SELECT x FROM c)"),
            "6;");
  EXPECT_EQ(env_.counts.total(), 0) << "reads " << env_.counts.reads << ", locks "
                                    << env_.counts.locks << ", exists " << env_.counts.exists;
  // The meter meters: a statement that reads a table locks and reads.
  ASSERT_EQ(RunSql(*db, "SELECT count(*) FROM t"), "2;");
  EXPECT_GT(env_.counts.locks, 0);
  EXPECT_GT(env_.counts.reads, 0);
  // And so does one whose subquery, or view, reads a table.
  env_.counts = {};
  ASSERT_EQ(RunSql(*db, "SELECT 1 + (SELECT max(a) FROM t)"), "3;");
  EXPECT_GT(env_.counts.locks, 0);
}

TEST_F(TablelessStatementTest, RunsWhileAnotherProcessHoldsTheFileExclusively) {
  auto db = Open();
  ASSERT_TRUE(db);
  // Another process (fcntl locks do not conflict within one) takes the
  // file's EXCLUSIVE lock and holds it until told to commit.
  int ready[2], go[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(go), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    sqlite3* w = nullptr;
    int rc = sqlite3_open(path().c_str(), &w);
    if (rc == SQLITE_OK)
      rc = sqlite3_exec(w, "BEGIN EXCLUSIVE; INSERT INTO t VALUES(3);", nullptr, nullptr, nullptr);
    const char ok = rc == SQLITE_OK ? 'y' : 'n';
    if (write(ready[1], &ok, 1) != 1) _exit(2);
    char c;
    if (read(go[0], &c, 1) != 1) _exit(3);
    rc = sqlite3_exec(w, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(w);
    _exit(rc == SQLITE_OK ? 0 : 4);
  }
  char ok = 0;
  ASSERT_EQ(read(ready[0], &ok, 1), 1);
  ASSERT_EQ(ok, 'y');
  // As in sqlite3: no lock is needed, so none is refused.
  EXPECT_EQ(RunSql(*db, "SELECT 40 + 2"), "42;");
  EXPECT_EQ(RunSql(*db, "SELECT count(*) FROM t"), "error: database is locked");
  ASSERT_EQ(write(go[1], "c", 1), 1);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  for (int fd : {ready[0], ready[1], go[0], go[1]}) close(fd);
  EXPECT_EQ(RunSql(*db, "SELECT count(*) FROM t"), "3;");
}

TEST_F(TablelessStatementTest, SchemaChangedByAnotherConnectionIsSeen) {
  auto db = Open();
  ASSERT_TRUE(db);
  ASSERT_EQ(RunSql(*db, "SELECT count(*) FROM t"), "2;");
  SqliteDb other(path());
  // A new table: the prepare fails on the connection's catalog, reads the
  // schema and plans again.
  ASSERT_TRUE(other.Exec("CREATE TABLE u(x); INSERT INTO u VALUES('new');"));
  EXPECT_EQ(RunSql(*db, "SELECT x FROM u"), "new;");
  // A new column, the same.
  ASSERT_TRUE(other.Exec("ALTER TABLE t ADD COLUMN b; UPDATE t SET b = 'bee'"));
  EXPECT_EQ(RunSql(*db, "SELECT b FROM t LIMIT 1"), "bee;");
  // A statement prepared before the change sees it when it runs.
  auto st = db->Prepare("SELECT count(*) FROM u");
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(other.Exec("DROP TABLE u"));
  auto row = (*st)->Step();
  ASSERT_FALSE(row.ok());
  EXPECT_EQ(row.status().message(), "no such table: u");
  // A table gone: prepared on the old catalog, refused when it runs.
  EXPECT_EQ(RunSql(*db, "SELECT * FROM u"), "error: no such table: u");
  // A name that was never there stays an error at prepare.
  EXPECT_EQ(RunSql(*db, "SELECT * FROM nowhere"), "error: no such table: nowhere");
}

}  // namespace
}  // namespace engine
