#include "perfci/runner/git_worktree.h"

#include <ctime>
#include <nlohmann/json.hpp>

#include "perfci/runner/cmake_build.h"
#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
constexpr const char* kMarker = "perfci-build.json";
// Written once `git worktree add` completed. git writes src/.git first, so
// a checkout that perfci's SIGINT/SIGTERM (or a kill -9) cut short has a
// .git but not this: it is removed and checked out again, never built.
constexpr const char* kCheckoutMarker = "perfci-checkout.done";

void say(const RevisionBuildOptions& o, const std::string& s) {
  if (o.progress) o.progress(s);
}

nlohmann::json marker_for(const std::string& commit, const RevisionBuildOptions& o,
                          const std::vector<std::string>& configure) {
  return {
      {"commit", commit}, {"preset", o.preset}, {"targets", o.targets}, {"configure", configure}};
}

CMakeBuildOptions cmake_options(const RevisionBuildOptions& o) {
  CMakeBuildOptions c;
  c.preset = o.preset;
  c.targets = o.targets;
  c.jobs = o.jobs;
  c.timeout = o.timeout;
  return c;
}

}  // namespace

RevisionBuild build_revision(const std::string& revision, const RevisionBuildOptions& o) {
  check_revision_syntax(revision);
  fs::path top = git_toplevel(o.repo.empty() ? fs::current_path() : o.repo);
  fs::path cache = o.cache_dir.empty() ? top / ".perfci-cache" / "worktrees" : o.cache_dir;
  cache = fs::absolute(cache).lexically_normal();
  RevisionBuild out;
  out.revision = revision;

  if (revision == kWorktreeRevision) {
    out.commit = resolve_commit(top, "HEAD");
    out.dirty = worktree_is_dirty(top);
    out.source_dir = top;
    out.build_dir = cache / "WORKTREE" / "build";
    fs::create_directories(out.build_dir);
    out.configure_command = configure_command(top, out.build_dir, o.preset);
    say(o, "building the working tree (" + short_hash(out.commit) + (out.dirty ? "+changes" : "") +
               ") in " + out.build_dir.string());
    configure_and_build(top, out.build_dir, out.configure_command, cmake_options(o));
    return out;
  }

  out.commit = resolve_commit(top, revision);
  fs::path slot = cache / out.commit;
  out.source_dir = slot / "src";
  out.build_dir = slot / "build";
  fs::path marker = slot / kMarker;
  std::error_code ec;
  // The marker is written only after a complete build, and a build folder
  // deleted since then means building again.
  if (fs::exists(marker, ec) && fs::exists(out.source_dir / ".git", ec) &&
      fs::exists(out.build_dir / "CMakeCache.txt", ec)) {
    try {
      auto m = nlohmann::json::parse(read_file(marker));
      if (m.value("preset", "") == o.preset &&
          m.value("targets", std::vector<std::string>{}) == o.targets) {
        out.reused = true;
        out.configure_command = m.value("configure", std::vector<std::string>{});
        say(o, "reusing the cached build of " + revision + " (" + short_hash(out.commit) + ") in " +
                   out.build_dir.string());
        return out;
      }
    } catch (const nlohmann::json::exception&) {
      // A damaged marker: build again, which rewrites it.
    }
  }
  fs::create_directories(slot);
  const fs::path checked_out = slot / kCheckoutMarker;
  if (!fs::exists(out.source_dir / ".git", ec) || !fs::exists(checked_out, ec)) {
    // A folder left by an interrupted `worktree add` would make git refuse
    // (or be half a checkout): removed, then pruned from git's list.
    fs::remove(checked_out, ec);
    fs::remove_all(out.source_dir, ec);
    run_tool_step({"git", "-C", top.string(), "worktree", "prune"}, top, o.timeout);
    std::vector<std::string> add{"git",     "-C",       top.string(), "worktree",
                                 "add",     "--detach", "--force",    out.source_dir.string(),
                                 out.commit};
    say(o, "checking out " + revision + " (" + short_hash(out.commit) + ") into " +
               out.source_dir.string());
    require_step_ok("git worktree add", add, run_tool_step(add, top, o.timeout));
    write_file_atomic(checked_out, out.commit + "\n");
  }
  out.configure_command = configure_command(out.source_dir, out.build_dir, o.preset);
  say(o, "building " + revision + " (" + short_hash(out.commit) + ") in " + out.build_dir.string());
  fs::remove(marker, ec);
  configure_and_build(out.source_dir, out.build_dir, out.configure_command, cmake_options(o));
  write_file_atomic(marker, marker_for(out.commit, o, out.configure_command).dump(2) + "\n");
  return out;
}

}  // namespace perfci
