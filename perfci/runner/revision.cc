#include "perfci/runner/revision.h"

#include <cctype>

#include "perfci/util/error.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci {

SubprocessResult run_git(const std::filesystem::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {"git", "-C", repo.string()};
  for (auto& a : args) o.argv.push_back(std::move(a));
  // Never prompt (credentials, pagers): perfci runs unattended.
  o.set_env = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_PAGER", "cat"}, {"LC_ALL", "C"}};
  o.timeout = std::chrono::minutes(2);
  return run_subprocess(o);
}

void check_revision_syntax(const std::string& revision) {
  if (revision.empty()) throw Error("an empty revision is not a revision");
  if (revision.front() == '-')
    throw Error("'" + revision +
                "' is not a revision (it starts with '-'; options are not accepted here)");
  for (unsigned char c : revision)
    if (c < 0x20 || c == 0x7f || c == ' ')
      throw Error("'" + revision +
                  "' is not a revision (it contains whitespace or control characters)");
}

std::filesystem::path git_toplevel(const std::filesystem::path& dir) {
  auto r = run_git(dir, {"rev-parse", "--show-toplevel"});
  if (!r.spawn_error.empty()) throw Error("cannot run git: " + r.spawn_error);
  if (!r.ok()) throw Error(dir.string() + " is not inside a git working tree: " + trim(r.err_tail));
  return trim_end(r.out);  // a path: leading blanks would be part of it
}

std::string resolve_commit(const std::filesystem::path& repo, const std::string& revision) {
  check_revision_syntax(revision);
  auto r = run_git(
      repo, {"rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"});
  if (!r.spawn_error.empty()) throw Error("cannot run git: " + r.spawn_error);
  std::string hash = trim(r.out);
  if (!r.ok() || hash.size() < 40)
    throw Error("unknown revision '" + revision + "' in " + repo.string() +
                " (git rev-parse --verify found no commit by that name)");
  for (char c : hash)
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      throw Error("git rev-parse returned an unexpected answer for '" + revision + "': " + hash);
  return hash;
}

bool worktree_is_dirty(const std::filesystem::path& repo) {
  auto r = run_git(repo, {"status", "--porcelain", "--untracked-files=normal"});
  if (!r.ok()) throw Error("git status failed in " + repo.string() + ": " + trim(r.err_tail));
  return !trim(r.out).empty();
}

bool is_ancestor(const std::filesystem::path& repo, const std::string& ancestor,
                 const std::string& descendant) {
  check_revision_syntax(ancestor);
  check_revision_syntax(descendant);
  auto r = run_git(repo, {"merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant});
  if (!r.spawn_error.empty()) throw Error("cannot run git: " + r.spawn_error);
  // 0: yes, 1: no; anything else (an unknown object, a shallow history) is an error.
  if (r.exit_code == 0) return true;
  if (r.exit_code == 1 && r.term_signal == 0 && !r.timed_out) return false;
  throw Error("git merge-base --is-ancestor " + ancestor + " " + descendant + " failed in " +
              repo.string() + ": " + trim(r.err_tail));
}

}  // namespace perfci
