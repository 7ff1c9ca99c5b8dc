// The history `perfci bisect` walks: the commits between two revisions
// along first-parent history, and what a report says of one commit. git
// gets argv elements after --end-of-options, never a shell line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfci {

// `git rev-list --first-parent --ancestry-path GOOD..BAD`, oldest first:
// the commits BAD's first-parent chain holds after GOOD (both resolved
// hashes). A merge on that chain stands for the whole branch it merged, so
// a regression that came in through one is pinned to the merge commit.
// --ancestry-path keeps only descendants of GOOD: with GOOD on a merged
// side branch, the range starts at the merge. Throws perfci::Error.
std::vector<std::string> first_parent_range(const std::filesystem::path& repo,
                                            const std::string& good, const std::string& bad);

// The subject line of a commit (git log -1 --format=%s).
std::string commit_subject(const std::filesystem::path& repo, const std::string& commit);

// The commit's parents, first parent first (none for a root commit).
std::vector<std::string> commit_parents(const std::filesystem::path& repo,
                                        const std::string& commit);

}  // namespace perfci
