// Git revisions as the user names them on the command line ("HEAD~1",
// "main", a hash, or WORKTREE for the uncommitted tree), checked and
// resolved to a commit hash. git gets them as argv elements after
// --end-of-options, never through a shell, and anything that could be read
// as an option is refused before git sees it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "perfci/util/subprocess.h"

namespace perfci {

// The uncommitted working tree, built in place.
inline constexpr const char* kWorktreeRevision = "WORKTREE";

// Throws perfci::Error for text that cannot be a revision: empty, starting
// with '-', or holding control characters or whitespace.
void check_revision_syntax(const std::string& revision);

// The top folder of the git working tree that holds `dir`. Throws
// perfci::Error when `dir` is not inside one (or git is missing).
std::filesystem::path git_toplevel(const std::filesystem::path& dir);

// The full commit hash `revision` names in the repository at `repo`
// (git rev-parse --verify --end-of-options REV^{commit}). Throws
// perfci::Error "unknown revision 'X' in /repo: ..." when git does not know it.
std::string resolve_commit(const std::filesystem::path& repo, const std::string& revision);

// True when the working tree differs from HEAD (tracked or untracked files).
bool worktree_is_dirty(const std::filesystem::path& repo);

// True when commit `ancestor` is `descendant` or one of its ancestors (both
// already resolved). Throws perfci::Error when git cannot tell (an unknown
// commit, a history too shallow to hold it).
bool is_ancestor(const std::filesystem::path& repo, const std::string& ancestor,
                 const std::string& descendant);

// A commit as perfci's outputs name it: its first 12 hex digits.
inline std::string short_hash(const std::string& commit) { return commit.substr(0, 12); }

// Runs git with `args` in the repository at `repo`: argv, never a shell,
// never a prompt or a pager, C locale. Never throws for a failing git; the
// result says what happened.
SubprocessResult run_git(const std::filesystem::path& repo, std::vector<std::string> args);

}  // namespace perfci
