#include "perfci/runner/git_history.h"

#include <sstream>

#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

std::string git_out(const std::filesystem::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {"git", "-C", repo.string()};
  for (auto& a : args) o.argv.push_back(std::move(a));
  o.set_env = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_PAGER", "cat"}, {"LC_ALL", "C"}};
  o.timeout = std::chrono::minutes(2);
  auto r = run_subprocess(o);
  if (!r.spawn_error.empty()) throw Error("cannot run git: " + r.spawn_error);
  if (!r.ok())
    throw Error(format_command(o.argv) + " failed: " + r.describe() + ": " + trim(r.err_tail));
  return r.out;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

std::vector<std::string> first_parent_range(const std::filesystem::path& repo,
                                            const std::string& good, const std::string& bad) {
  check_revision_syntax(good);
  check_revision_syntax(bad);
  auto commits = words(git_out(repo, {"rev-list", "--first-parent", "--ancestry-path", "--reverse",
                                      "--end-of-options", bad, "^" + good}));
  return commits;
}

std::string commit_subject(const std::filesystem::path& repo, const std::string& commit) {
  check_revision_syntax(commit);
  return trim(git_out(repo, {"log", "-1", "--format=%s", "--end-of-options", commit}));
}

std::vector<std::string> commit_parents(const std::filesystem::path& repo,
                                        const std::string& commit) {
  check_revision_syntax(commit);
  auto w = words(git_out(repo, {"rev-list", "--parents", "-n", "1", "--end-of-options", commit}));
  if (!w.empty()) w.erase(w.begin());  // the commit itself
  return w;
}

}  // namespace perfci
