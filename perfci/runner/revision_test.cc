#include "perfci/runner/revision.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

void git(const std::filesystem::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {"git", "-C", repo.string(), "-c", "user.name=t", "-c", "user.email=t@example.com"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << format_command(o.argv) << ": " << r.describe() << r.err_tail;
}

TEST(RevisionSyntax, RefusesOptionsAndShellText) {
  // ";rm -rf /" passes this check (no shell ever sees it); git refuses it below.
  for (const char* bad : {"--upload-pack=touch /tmp/x", "-h", "", "a b", "x\ny"}) {
    EXPECT_THROW(check_revision_syntax(bad), Error) << bad;
  }
  EXPECT_NO_THROW(check_revision_syntax("HEAD~1"));
  EXPECT_NO_THROW(check_revision_syntax("origin/main"));
}

TEST(ResolveCommit, ResolvesAndRefuses) {
  TempDir dir("perfci-rev");
  git(dir.path(), {"init", "-q"});
  git(dir.path(), {"commit", "-q", "--allow-empty", "-m", "one"});
  git(dir.path(), {"commit", "-q", "--allow-empty", "-m", "two"});
  std::string head = resolve_commit(dir.path(), "HEAD");
  std::string parent = resolve_commit(dir.path(), "HEAD~1");
  EXPECT_EQ(head.size(), 40u);
  EXPECT_NE(head, parent);
  EXPECT_EQ(resolve_commit(dir.path(), head.substr(0, 10)), head);
  EXPECT_EQ(git_toplevel(dir.path()), std::filesystem::canonical(dir.path()));

  for (const char* bad : {";rm -rf /", "no-such-branch", "HEAD~5", "--upload-pack=x", "-n"}) {
    try {
      resolve_commit(dir.path(), bad);
      ADD_FAILURE() << "resolved " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("revision"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(worktree_is_dirty(dir.path()));
  write_file_atomic(dir.path() / "new.txt", "x");
  EXPECT_TRUE(worktree_is_dirty(dir.path()));
}

TEST(GitToplevel, OutsideARepositoryIsAnError) {
  TempDir dir("perfci-norepo");
  EXPECT_THROW(git_toplevel(dir.path()), Error);
}

}  // namespace
}  // namespace perfci
