#include "perfci/runner/git_history.h"

#include <sstream>

#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

std::string git_out(const std::filesystem::path& repo, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git", "-C", repo.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_git(repo, std::move(args));
  if (!r.spawn_error.empty()) throw Error("cannot run git: " + r.spawn_error);
  if (!r.ok())
    throw Error(format_command(argv) + " failed: " + r.describe() + ": " + trim(r.err_tail));
  if (r.out_truncated) throw Error(format_command(argv) + ": its output is too long to read");
  return r.out;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// "<hash>\t<subject>" lines, as --format=%H%x09%s writes them.
std::vector<CommitSubject> commit_subjects(const std::string& log) {
  std::vector<CommitSubject> out;
  for (const auto& line : split_list(log, '\n')) {
    const auto tab = line.find('\t');
    out.push_back({line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1)});
  }
  return out;
}

}  // namespace

std::vector<CommitSubject> first_parent_range(const std::filesystem::path& repo,
                                              const std::string& good, const std::string& bad) {
  check_revision_syntax(good);
  check_revision_syntax(bad);
  return commit_subjects(git_out(repo, {"log", "--first-parent", "--ancestry-path", "--reverse",
                                        "--format=%H%x09%s", "--end-of-options", bad, "^" + good}));
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

std::vector<CommitSubject> first_parent_log(const std::filesystem::path& repo,
                                            const std::string& head, std::size_t limit) {
  const std::string commit = resolve_commit(repo, head);
  std::vector<std::string> args = {"log", "--first-parent", "--format=%H%x09%s"};
  if (limit > 0) args.push_back("--max-count=" + std::to_string(limit));
  args.push_back(commit);
  return commit_subjects(git_out(repo, std::move(args)));
}

}  // namespace perfci
