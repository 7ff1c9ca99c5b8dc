// The history `perfci bisect` walks and `perfci history` reads: the commits
// between two revisions along first-parent history, a revision's
// first-parent log, and a commit's subject and parents. git
// gets argv elements after --end-of-options, never a shell line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfci {

// One commit of first-parent history.
struct CommitSubject {
  std::string commit;   // full hash
  std::string subject;  // the first line of its message
};

// `git rev-list --first-parent --ancestry-path GOOD..BAD`, oldest first,
// with their subjects (one git call):
// the commits BAD's first-parent chain holds after GOOD (both resolved
// hashes). A merge on that chain stands for the whole branch it merged, so
// a regression that came in through one is pinned to the merge commit.
// --ancestry-path keeps only descendants of GOOD: with GOOD on a merged
// side branch, the range starts at the merge. Throws perfci::Error.
std::vector<CommitSubject> first_parent_range(const std::filesystem::path& repo,
                                              const std::string& good, const std::string& bad);

// The subject line of a commit (git log -1 --format=%s).
std::string commit_subject(const std::filesystem::path& repo, const std::string& commit);

// The commit's parents, first parent first (none for a root commit).
std::vector<std::string> commit_parents(const std::filesystem::path& repo,
                                        const std::string& commit);

// `head`'s first-parent history, newest first, at most `limit` commits (0:
// all): the line a branch's trend is read along, merges counted once.
// Throws perfci::Error for an unknown revision.
std::vector<CommitSubject> first_parent_log(const std::filesystem::path& repo,
                                            const std::string& head, std::size_t limit);

}  // namespace perfci
