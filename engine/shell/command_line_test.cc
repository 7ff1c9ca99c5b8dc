// engine-shell's options against sqlite3's shell: -help and -version answer,
// an unknown option fails naming it, and none of them creates a database.
#include "engine/shell/command_line.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/testing/run_program.h"
#include "engine/testing/temp_dir.h"

namespace engine::shell {
namespace {

CommandLine Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "engine-shell");
  return ParseCommandLine(static_cast<int>(args.size()), args.data());
}

TEST(CommandLineTest, Options) {
  EXPECT_EQ(Parse({"--help"}).action, CommandLine::Action::kHelp);
  EXPECT_EQ(Parse({"-help"}).action, CommandLine::Action::kHelp);
  EXPECT_EQ(Parse({"db", "-help"}).action, CommandLine::Action::kHelp);
  EXPECT_EQ(Parse({"--version"}).action, CommandLine::Action::kVersion);
  EXPECT_EQ(Parse({"-version"}).action, CommandLine::Action::kVersion);

  CommandLine bad = Parse({"--bogus", "db"});
  EXPECT_EQ(bad.action, CommandLine::Action::kError);
  EXPECT_EQ(bad.error, "unknown option: -bogus");
  EXPECT_EQ(Parse({"db", "-x"}).error, "unknown option: -x");
  EXPECT_EQ(Parse({"db", "-c"}).action, CommandLine::Action::kError);
  // No name: sqlite3's transient in-memory database; "" is a name (a
  // private temporary database).
  EXPECT_EQ(Parse({}).action, CommandLine::Action::kRun);
  EXPECT_EQ(Parse({}).path, ":memory:");
  EXPECT_EQ(Parse({"-c", "SELECT 1"}).path, ":memory:");
  EXPECT_EQ(Parse({""}).path, "");

  CommandLine run = Parse({"db", "SELECT 1"});
  EXPECT_EQ(run.action, CommandLine::Action::kRun);
  EXPECT_EQ(run.path, "db");
  EXPECT_TRUE(run.has_command);
  EXPECT_EQ(run.command, "SELECT 1");
  CommandLine c = Parse({"-c", "SELECT 2", "db"});
  EXPECT_EQ(c.path, "db");
  EXPECT_EQ(c.command, "SELECT 2");
  EXPECT_FALSE(Parse({"db"}).has_command);
  // "-" alone is a file name, not an option.
  EXPECT_EQ(Parse({"-"}).path, "-");
}

// The binary itself, run in an empty directory: exit status, where the text
// goes, and that no file appears.
class ShellBinaryTest : public ::testing::Test {
 protected:
  testing::ProgramOutput Run(const std::vector<std::string>& args, const std::string& in = "") {
    std::vector<std::string> argv = {ENGINE_SHELL_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunIn(argv, in);
  }
  // argv (any program) run in dir_.
  testing::ProgramOutput RunIn(const std::vector<std::string>& argv, const std::string& in) {
    const std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir_.path());
    testing::ProgramOutput p = testing::RunProgram(argv, in);
    std::filesystem::current_path(cwd);
    EXPECT_TRUE(p.started);
    return p;
  }
  bool DirEmpty() const { return std::filesystem::is_empty(dir_.path()); }

  testing::TempDir dir_;
};

TEST_F(ShellBinaryTest, HelpGoesToStderrAndExitsOneLikeSqlite3) {
  for (const char* opt : {"--help", "-help"}) {
    const testing::ProgramOutput p = Run({opt});
    EXPECT_EQ(p.exit_status, 1) << opt;
    EXPECT_EQ(p.out, "") << opt;
    EXPECT_EQ(p.err.rfind("Usage: " ENGINE_SHELL_PATH " [OPTIONS] FILENAME [SQL]\n", 0), 0u)
        << p.err;
    EXPECT_TRUE(DirEmpty()) << opt;
  }
}

TEST_F(ShellBinaryTest, VersionGoesToStdout) {
  for (const char* opt : {"--version", "-version"}) {
    const testing::ProgramOutput p = Run({opt});
    EXPECT_EQ(p.exit_status, 0) << opt;
    EXPECT_EQ(p.out, VersionText()) << opt;
    EXPECT_EQ(p.err, "") << opt;
    EXPECT_TRUE(DirEmpty()) << opt;
  }
}

TEST_F(ShellBinaryTest, UnknownOptionIsAnErrorNamingIt) {
  const testing::ProgramOutput p = Run({"--bogus", "x.db"});
  EXPECT_EQ(p.exit_status, 1);
  EXPECT_EQ(p.err, std::string(ENGINE_SHELL_PATH) +
                       ": Error: unknown option: -bogus\nUse -help for a list of options.\n");
  EXPECT_TRUE(DirEmpty());
  // sqlite3 says the same in the same words (with its own name).
  const std::string sqlite3 = testing::Sqlite3ShellPath();
  if (!sqlite3.empty()) {
    const testing::ProgramOutput s = testing::RunProgram({sqlite3, "--bogus", "x.db"}, "");
    EXPECT_EQ(s.exit_status, 1);
    EXPECT_EQ(s.err,
              sqlite3 + ": Error: unknown option: -bogus\nUse -help for a list of options.\n");
  }
}

TEST_F(ShellBinaryTest, ADatabaseStillOpens) {
  const testing::ProgramOutput p = Run({"x.db", "SELECT 1 + 1"});
  EXPECT_EQ(p.exit_status, 0) << p.err;
  EXPECT_EQ(p.out, "2\n");
  EXPECT_TRUE(std::filesystem::exists(dir_.file("x.db")));
}

// `engine-shell :memory:`, `engine-shell ""` and `engine-shell` alone open
// a database of their own that leaves no file, and print what sqlite3 prints.
TEST_F(ShellBinaryTest, InMemoryAndTemporaryDatabasesLeaveNoFile) {
  const std::string script =
      "CREATE TABLE t(a INTEGER PRIMARY KEY, b);\n"
      "INSERT INTO t VALUES (1, 'x'), (2, 'y');\n"
      "BEGIN; DELETE FROM t; ROLLBACK;\n"
      "SELECT * FROM t;\n"
      "PRAGMA journal_mode;\n"
      "PRAGMA database_list;\n";
  const std::string sqlite3 = testing::Sqlite3ShellPath();
  ASSERT_FALSE(sqlite3.empty()) << "no sqlite3 shell on PATH: apt-get install sqlite3";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{}, {":memory:"}, {""}}) {
    const std::string what = args.empty() ? "(none)" : "'" + args[0] + "'";
    const testing::ProgramOutput p = Run(args, script);
    EXPECT_EQ(p.exit_status, 0) << what << p.err;
    EXPECT_EQ(p.err, "") << what;
    EXPECT_TRUE(DirEmpty()) << what;
    std::vector<std::string> argv = {sqlite3};
    argv.insert(argv.end(), args.begin(), args.end());
    const testing::ProgramOutput s = RunIn(argv, script);
    EXPECT_EQ(p.out, s.out) << what;
    EXPECT_EQ(s.out.substr(0, 8), "1|x\n2|y\n") << what;
    EXPECT_TRUE(DirEmpty()) << what << " (sqlite3)";
  }
  // The SQL argument too, and a URI, which the shell reads as sqlite3's does.
  for (const std::string name : {":memory:", "", "file::memory:", "file:x.db?mode=memory"}) {
    const testing::ProgramOutput p = Run({name, "SELECT 6 * 7; PRAGMA journal_mode"});
    EXPECT_EQ(p.exit_status, 0) << name << p.err;
    EXPECT_EQ(p.out, name.empty() ? "42\ndelete\n" : "42\nmemory\n") << name;
    EXPECT_TRUE(DirEmpty()) << name;
  }
}

// Opening failures print sqlite3's words and exit 1, creating nothing.
TEST_F(ShellBinaryTest, BadUrisFailLikeSqlite3) {
  const std::string sqlite3 = testing::Sqlite3ShellPath();
  ASSERT_FALSE(sqlite3.empty()) << "no sqlite3 shell on PATH: apt-get install sqlite3";
  for (const std::string name : {"file:missing.db?mode=rw", "file:missing.db?mode=ro",
                                 "file:x.db?mode=bogus", "file://elsewhere/x.db", "nodir/x.db"}) {
    const testing::ProgramOutput p = Run({name, "SELECT 1"});
    const testing::ProgramOutput s = RunIn({sqlite3, name, "SELECT 1"}, "");
    EXPECT_EQ(p.exit_status, 1) << name;
    EXPECT_EQ(p.exit_status, s.exit_status) << name;
    EXPECT_EQ(p.out, s.out) << name;
    EXPECT_EQ(p.err, s.err) << name;
    EXPECT_TRUE(DirEmpty()) << name;
  }
}

}  // namespace
}  // namespace engine::shell
