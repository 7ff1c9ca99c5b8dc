// Builds a git revision for an A/B: each commit is checked out in its own
// `git worktree` under a cache folder keyed by the commit hash and built
// there with the project's CMake preset; a commit built before (same preset,
// same targets) is reused as it is. WORKTREE, the uncommitted tree, is built
// in place into its own build folder in the cache (incrementally, never
// "reused" blindly since its content has no hash).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace perfci {

struct RevisionBuildOptions {
  std::filesystem::path repo;        // any folder inside the git working tree
  std::filesystem::path cache_dir;   // empty: <toplevel>/.perfci-cache/worktrees
  std::string preset = "release";    // used when the revision has CMakePresets.json with it
  std::vector<std::string> targets;  // empty: the default target
  int jobs = 0;                      // 0: CMake's default
  std::chrono::minutes timeout{60};  // per configure or build step
  std::function<void(const std::string&)> progress;
};

struct RevisionBuild {
  std::string revision;  // as given
  std::string commit;    // full hash (HEAD's for WORKTREE)
  bool dirty = false;    // WORKTREE with uncommitted changes
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  bool reused = false;  // a cached build of this commit was used as it was
  std::vector<std::string> configure_command;
};

// Throws perfci::Error on a non-revision argument, an unknown revision, or a
// failing git / configure / build step (with the tail of its output).
RevisionBuild build_revision(const std::string& revision, const RevisionBuildOptions& options);

}  // namespace perfci
