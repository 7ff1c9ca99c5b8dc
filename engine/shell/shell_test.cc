#include "engine/shell/shell.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine::shell {
namespace {

const char* kSetup =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL, c);"
    "INSERT INTO t VALUES (1, 'one', 1.5, NULL), (2, 'two', 2.0, 7), (3, NULL, 0.1, 'x'),"
    "  (4, 'four', 1e20, 3.25), (5, '', -0.5, -12);"
    "CREATE TABLE u(k INTEGER UNIQUE, v TEXT NOT NULL);"
    "INSERT INTO u VALUES (1, 'a'), (2, 'b');"
    "CREATE INDEX ta ON t(a);";

struct Output {
  std::string out, err;
  int status = 0;
};

// sqlite3's shell on `db` with `script` on stdin.
Output RunSqlite3(const std::string& db, const std::string& script, const std::string& dir) {
  const std::string in = dir + "/in.sql", out = dir + "/out.txt", err = dir + "/err.txt";
  std::ofstream(in) << script;
  const std::string cmd = "sqlite3 " + db + " < " + in + " > " + out + " 2> " + err;
  Output o;
  o.status = std::system(cmd.c_str());
  std::stringstream so, se;
  so << std::ifstream(out).rdbuf();
  se << std::ifstream(err).rdbuf();
  o.out = so.str();
  o.err = se.str();
  return o;
}

class ShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"engine.db", "sqlite.db"}) {
      testing::SqliteDb db(dir_.file(name));
      ASSERT_TRUE(db.Exec(kSetup)) << db.error();
    }
  }

  Output RunEngine(const std::string& script) {
    auto db = Database::Open(dir_.file("engine.db"));
    EXPECT_TRUE(db.ok());
    std::istringstream in(script);
    std::ostringstream out, err;
    Shell shell(db->get(), out, err);
    Output o;
    o.status = shell.RunScript(in);
    o.out = out.str();
    o.err = err.str();
    return o;
  }

  void ExpectSameAsSqlite3(const std::string& script) {
    if (std::system("sqlite3 -version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no sqlite3 shell";
    const Output want = RunSqlite3(dir_.file("sqlite.db"), script, dir_.path());
    const Output got = RunEngine(script);
    EXPECT_EQ(got.out, want.out) << script;
    EXPECT_EQ(got.err, want.err) << script;
    EXPECT_EQ(got.status != 0, want.status != 0) << script;
  }

  testing::TempDir dir_;
};

TEST_F(ShellTest, QueriesPrintLikeSqlite3) {
  ExpectSameAsSqlite3(
      "SELECT * FROM t;\n"
      "SELECT id, b * 3, b / 7, c || 'z', typeof(c) FROM t ORDER BY b;\n"
      "SELECT count(*), sum(b), avg(id), min(a), max(a) FROM t;\n"
      "SELECT a, id FROM t WHERE a > 'f' ORDER BY a;\n"
      "select 1.5, 1e20, 0.1, NULL, 3/2.0, 10/3, -0.0, 1e300*1e300;\n"
      "SELECT k, v FROM u\n  WHERE k IN (SELECT id FROM t);\n"
      "SELECT 1; SELECT 2;\n"
      "SELECT 'no semicolon'");
}

TEST_F(ShellTest, DotCommandsMatch) {
  ExpectSameAsSqlite3(".tables\n.schema\n.schema u\n");
}

TEST_F(ShellTest, ErrorsMatch) {
  ExpectSameAsSqlite3(
      "SELECT 1;\n"
      "SELECT * FROM nope;\n"
      "SELECT 2;\n"
      "INSERT INTO u VALUES (1, 'dup');\n"
      "INSERT INTO u VALUES (9, NULL);\n"
      "SELECT count(*) FROM u;\n");
}

TEST(ShellCommandTest, CommandModeExitStatus) {
  testing::TempDir dir;
  auto db = Database::Open(dir.file("c.db"));
  ASSERT_TRUE(db.ok());
  std::ostringstream out, err;
  Shell shell(db->get(), out, err);
  EXPECT_EQ(shell.RunCommand("CREATE TABLE t(a UNIQUE); INSERT INTO t VALUES (1);"), 0);
  EXPECT_EQ(shell.RunCommand("SELECT a FROM t"), 0);
  EXPECT_EQ(out.str(), "1\n");
  EXPECT_EQ(shell.RunCommand("SELECT * FROM nope"), 1);
  EXPECT_EQ(err.str(), "Error: in prepare, no such table: nope\n");
  err.str("");
  EXPECT_EQ(shell.RunCommand("INSERT INTO t VALUES (1)"), 19);
  EXPECT_EQ(err.str(), "Error: stepping, UNIQUE constraint failed: t.a (19)\n");
}

TEST(ShellCompleteTest, Completeness) {
  EXPECT_TRUE(IsComplete("select 1;"));
  EXPECT_TRUE(IsComplete("select 1; -- done\n"));
  EXPECT_FALSE(IsComplete("select ';'"));
  EXPECT_FALSE(IsComplete("select 1"));
  EXPECT_FALSE(IsComplete("select /* ; */ 1"));
  EXPECT_TRUE(IsComplete("select \"a;b\";"));
}

}  // namespace
}  // namespace engine::shell
