#include "perfci/runner/git_worktree.h"

#include <ctime>
#include <nlohmann/json.hpp>

#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
constexpr const char* kMarker = "perfci-build.json";

void say(const RevisionBuildOptions& o, const std::string& s) {
  if (o.progress) o.progress(s);
}

SubprocessResult run_step(const std::vector<std::string>& argv, const fs::path& cwd,
                          std::chrono::milliseconds timeout) {
  SubprocessOptions s;
  s.argv = argv;
  s.cwd = cwd.string();
  s.set_env = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  s.timeout = timeout;
  s.stderr_tail = 8 << 10;
  return run_subprocess(s);
}

void check_step(const std::string& what, const std::vector<std::string>& argv,
                const SubprocessResult& r) {
  if (r.ok()) return;
  std::string out = r.out.size() > 3000 ? "..." + r.out.substr(r.out.size() - 3000) : r.out;
  std::string msg = what + " failed (" + format_command(argv) + ": " + r.describe() + ")";
  if (!r.spawn_error.empty()) msg += ": " + r.spawn_error;
  if (!out.empty()) msg += "\n" + out;
  if (!r.err_tail.empty()) msg += "\n" + r.err_tail;
  throw Error(msg);
}

bool has_preset(const fs::path& source, const std::string& preset) {
  if (preset.empty()) return false;
  fs::path file = source / "CMakePresets.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return false;
  try {
    auto j = nlohmann::json::parse(read_file(file));
    for (const auto& p : j.value("configurePresets", nlohmann::json::array()))
      if (p.value("name", "") == preset) return true;
  } catch (const nlohmann::json::exception&) {
    return false;  // cmake would reject it too; the plain configure still works
  }
  return false;
}

std::vector<std::string> configure_command(const fs::path& source, const fs::path& build,
                                           const std::string& preset) {
  if (has_preset(source, preset)) return {"cmake", "--preset", preset, "-B", build.string()};
  std::vector<std::string> argv{"cmake", "-S", source.string(), "-B", build.string(),
                                "-DCMAKE_BUILD_TYPE=Release"};
  // Ninja when there is one: faster no-op rebuilds of a cached commit.
  SubprocessOptions probe;
  probe.argv = {"ninja", "--version"};
  probe.timeout = std::chrono::seconds(10);
  if (run_subprocess(probe).ok() && !fs::exists(build / "CMakeCache.txt")) {
    argv.push_back("-G");
    argv.push_back("Ninja");
  }
  return argv;
}

nlohmann::json marker_for(const std::string& commit, const RevisionBuildOptions& o,
                          const std::vector<std::string>& configure) {
  return {{"commit", commit}, {"preset", o.preset}, {"targets", o.targets},
          {"configure", configure}};
}

void configure_and_build(const fs::path& source, const fs::path& build,
                         const std::vector<std::string>& configure, const RevisionBuildOptions& o) {
  auto r = run_step(configure, source, o.timeout);
  check_step("configuring " + source.string(), configure, r);
  std::vector<std::string> argv{"cmake", "--build", build.string()};
  if (o.jobs > 0) argv.insert(argv.end(), {"-j", std::to_string(o.jobs)});
  for (const auto& t : o.targets) argv.insert(argv.end(), {"--target", t});
  r = run_step(argv, source, o.timeout);
  check_step("building " + source.string(), argv, r);
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
    say(o, "building the working tree (" + out.commit.substr(0, 12) + (out.dirty ? "+changes" : "") +
               ") in " + out.build_dir.string());
    configure_and_build(top, out.build_dir, out.configure_command, o);
    return out;
  }

  out.commit = resolve_commit(top, revision);
  fs::path slot = cache / out.commit;
  out.source_dir = slot / "src";
  out.build_dir = slot / "build";
  fs::path marker = slot / kMarker;
  std::error_code ec;
  if (fs::exists(marker, ec) && fs::exists(out.source_dir / ".git", ec)) {
    try {
      auto m = nlohmann::json::parse(read_file(marker));
      if (m.value("preset", "") == o.preset &&
          m.value("targets", std::vector<std::string>{}) == o.targets) {
        out.reused = true;
        out.configure_command = m.value("configure", std::vector<std::string>{});
        say(o, "reusing the cached build of " + revision + " (" + out.commit.substr(0, 12) +
                   ") in " + out.build_dir.string());
        return out;
      }
    } catch (const nlohmann::json::exception&) {
      // A damaged marker: build again, which rewrites it.
    }
  }
  fs::create_directories(slot);
  if (!fs::exists(out.source_dir / ".git", ec)) {
    // A folder left by an interrupted `worktree add` would make git refuse.
    run_step({"git", "-C", top.string(), "worktree", "prune"}, top, o.timeout);
    fs::remove_all(out.source_dir, ec);
    std::vector<std::string> add{"git", "-C", top.string(), "worktree", "add", "--detach", "--force",
                                 out.source_dir.string(), out.commit};
    say(o, "checking out " + revision + " (" + out.commit.substr(0, 12) + ") into " +
               out.source_dir.string());
    check_step("git worktree add", add, run_step(add, top, o.timeout));
  }
  out.configure_command = configure_command(out.source_dir, out.build_dir, o.preset);
  say(o, "building " + revision + " (" + out.commit.substr(0, 12) + ") in " + out.build_dir.string());
  fs::remove(marker, ec);
  configure_and_build(out.source_dir, out.build_dir, out.configure_command, o);
  write_file_atomic(marker, marker_for(out.commit, o, out.configure_command).dump(2) + "\n");
  return out;
}

}  // namespace perfci
