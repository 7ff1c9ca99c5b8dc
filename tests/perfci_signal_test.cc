// End to end: SIGINT (to perfci's process group, as a terminal's Ctrl-C
// sends it) and SIGTERM (to perfci alone, as a CI timeout sends it) while a
// benchmark runs (issue 17). perfci must stop every child it started, leave
// nothing in its TMPDIR, write what it measured as a report marked
// incomplete and exit 128 + the signal. Nothing here depends on timing: the
// test waits, with a generous bound, until the sleeping benchmark
// (perfci_ab_fx_sleepy's BM_sleep, ten minutes) runs, then signals.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/report_schema_check.h"

extern char** environ;

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr auto kPatience = std::chrono::minutes(3);

std::vector<std::string> cmdline_of(const fs::path& proc) {
  std::ifstream in(proc / "cmdline", std::ios::binary);
  std::vector<std::string> argv;
  std::string arg;
  while (std::getline(in, arg, '\0')) argv.push_back(arg);
  return argv;
}

// Processes whose command line names one of `binaries` (directly, or as
// valgrind's program); with `measuring`, only runs that write a benchmark
// JSON (a trial, not the listing of the benchmarks).
std::vector<std::string> processes_of(const std::vector<std::string>& binaries,
                                      bool measuring = false) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto argv = cmdline_of(entry.path());
    bool named = false, trial = false;
    for (const auto& a : argv) {
      for (const auto& b : binaries) named = named || a == b;
      trial = trial || a.rfind("--benchmark_out=", 0) == 0;
    }
    if (named && (!measuring || trial)) {
      std::string line = pid + ":";
      for (const auto& a : argv) line += " " + a;
      found.push_back(line);
    }
  }
  return found;
}

template <typename Pred>
bool wait_for(Pred pred) {
  const auto until = Clock::now() + kPatience;
  while (Clock::now() < until) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return pred();
}

struct Launched {
  pid_t pid = -1;
  fs::path out, err;
};

// perfci in a process group of its own (a shell's job), TMPDIR set to
// `tmp`, its stdout and stderr in files of `dir`.
Launched launch(const std::vector<std::string>& args, const fs::path& tmp, const fs::path& dir) {
  Launched l;
  l.out = dir / "stdout.txt";
  l.err = dir / "stderr.txt";
  std::vector<std::string> argv_s{PERFCI_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("TMPDIR=", 0) != 0) env_s.emplace_back(*e);
  env_s.push_back("TMPDIR=" + tmp.string());
  std::vector<char*> argv, envp;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, l.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, l.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  // The test's own disposition must not leak in: perfci installs its own.
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  int rc = posix_spawn(&l.pid, PERFCI_BINARY, &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  EXPECT_EQ(rc, 0) << "posix_spawn: " << std::strerror(rc);
  return l;
}

// The exit status, or -1 (and the group killed) when perfci did not end.
int wait_exit(pid_t pid) {
  int status = 0;
  bool done = wait_for([&] { return ::waitpid(pid, &status, WNOHANG) == pid; });
  if (!done) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
  }
  if (WIFSIGNALED(status)) return 1000 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string text_of(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec) ? read_file(p) : std::string();
}

std::vector<std::string> entries_of(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

void expect_valid(const char* schema, const fs::path& file) {
  SubprocessOptions o;
  o.argv = {"/usr/bin/python3", SCHEMA_CHECK, "valid", schema, file.string()};
  auto r = run_subprocess(o);
  EXPECT_TRUE(r.ok()) << file << " does not match " << schema << ": " << r.out << r.err_tail;
}

struct Interruption {
  std::vector<std::string> args;      // perfci's arguments; OUT is replaced
  std::vector<std::string> binaries;  // the fixture binaries it runs
  int signo = SIGINT;
  bool to_group = true;  // kill(-pid) as Ctrl-C does, else kill(pid)
};

struct Outcome {
  int exit = -1;
  std::string out, err;
  fs::path dir;
};

// Runs perfci, waits for a trial of the sleeping benchmark, signals, and
// checks what must hold whatever the command: the exit code, no fixture
// process left, TMPDIR empty.
Outcome interrupt(const Interruption& in, const TempDir& dir) {
  const fs::path tmp = dir.path() / "tmp";
  fs::create_directories(tmp);
  // The shared fixture runs from a copy of this test's own: ctest runs the
  // cases side by side, and a process of another case must neither count as
  // this one's trial nor as left behind by it.
  const std::string own = (dir.path() / "sleepy_a").string();
  fs::copy_file(FX_SLEEPY, own, fs::copy_options::overwrite_existing);
  std::vector<std::string> binaries;
  for (const auto& b : in.binaries) binaries.push_back(b == FX_SLEEPY ? own : b);
  std::vector<std::string> args;
  for (const auto& a : in.args) {
    std::string s = a == FX_SLEEPY ? own : a;
    if (auto at = s.find("OUT"); at != std::string::npos) s.replace(at, 3, dir.path().string());
    args.push_back(s);
  }
  Launched l = launch(args, tmp, dir.path());
  const bool started = wait_for([&] { return !processes_of(binaries, true).empty(); });
  EXPECT_TRUE(started) << "no trial of the sleeping benchmark started; stderr:\n" << text_of(l.err);
  // perfci's own pid in its own group: -pid is the group, as the terminal's
  // foreground job.
  ::kill(in.to_group ? -l.pid : l.pid, in.signo);
  Outcome o;
  o.exit = wait_exit(l.pid);
  o.out = text_of(l.out);
  o.err = text_of(l.err);
  o.dir = dir.path();
  EXPECT_EQ(o.exit, 128 + in.signo) << "stderr:\n" << o.err;
  // perfci reaped what it started before it exited: nothing may be left.
  auto left = processes_of(binaries);
  EXPECT_TRUE(left.empty()) << "still running after perfci exited: " << left.front();
  for (const auto& line : left) ::kill(std::stoi(line), SIGKILL);
  auto stray = entries_of(tmp);
  EXPECT_TRUE(stray.empty()) << "left in TMPDIR: " << stray.front();
  EXPECT_NE(o.err.find("perfci: error: "), std::string::npos) << o.err;
  return o;
}

// B is a copy of the sleepy fixture, so that `ab` compares two binaries.
std::string copy_of_sleepy(const TempDir& dir) {
  fs::path b = dir.path() / "sleepy_b";
  fs::copy_file(FX_SLEEPY, b);
  return b.string();
}

void expect_incomplete_report(const fs::path& file, const char* signal, const char* reason) {
  ASSERT_TRUE(fs::exists(file)) << file;
  expect_valid_report(file);
  json j = json::parse(read_file(file));
  ASSERT_TRUE(j.contains("incomplete")) << j.dump(2);
  EXPECT_EQ(j["incomplete"]["signal"], signal);
  EXPECT_EQ(j["incomplete"]["reason"], reason);
  EXPECT_EQ(j["summary"]["exit_code"], j["incomplete"]["exit_code"]);
}

TEST(PerfciSignal, CtrlCOfAbStopsTheBenchmarkAndWritesAnIncompleteReport) {
  TempDir dir("perfci-signal");
  const std::string b = copy_of_sleepy(dir);
  Outcome o = interrupt(
      {{"ab",      "--a",        FX_SLEEPY, "--b",      b,          "--filter",  "BM_sleep|BM_sort",
        "--meter", "wall",       "--pairs", "3",        "--warmup", "0",         "--no-contracts",
        "--out",   "OUT/r.json", "--md",    "OUT/r.md", "--html",   "OUT/r.html"},
       {FX_SLEEPY, b},
       SIGINT,
       true},
      dir);
  expect_incomplete_report(o.dir / "r.json", "SIGINT", "interrupted by SIGINT after 0 of 3 pairs");
  const std::string md = text_of(o.dir / "r.md");
  EXPECT_EQ(md.rfind("## perfci A/B: **incomplete**\n\n**incomplete: interrupted by SIGINT after "
                     "0 of 3 pairs (exit 130)",
                     0),
            0u)
      << md;
  EXPECT_NE(text_of(o.dir / "r.html").find("incomplete: interrupted by SIGINT after 0 of 3 pairs"),
            std::string::npos);
  // The Markdown on stdout says the same.
  EXPECT_NE(o.out.find("**incomplete: interrupted by SIGINT"), std::string::npos) << o.out;
}

TEST(PerfciSignal, SigtermOfAbAloneStopsItsChildrenToo) {
  TempDir dir("perfci-signal");
  const std::string b = copy_of_sleepy(dir);
  Outcome o =
      interrupt({{"ab", "--a", FX_SLEEPY, "--b", b, "--filter", "BM_sleep", "--meter", "wall",
                  "--pairs", "2", "--no-contracts", "--quiet", "--out", "OUT/r.json"},
                 {FX_SLEEPY, b},
                 SIGTERM,
                 false},
                dir);
  expect_incomplete_report(o.dir / "r.json", "SIGTERM",
                           "interrupted by SIGTERM after 0 of 2 pairs");
  EXPECT_TRUE(o.out.empty()) << o.out;  // --quiet
}

TEST(PerfciSignal, CtrlCOfRunWritesIncompleteResults) {
  TempDir dir("perfci-signal");
  Outcome o = interrupt({{"run", "--binary", FX_SLEEPY, "--filter", "BM_sum|BM_sleep", "--meter",
                          "wall", "--out", "OUT/r.json"},
                         {FX_SLEEPY},
                         SIGINT,
                         true},
                        dir);
  const fs::path file = o.dir / "r.json";
  ASSERT_TRUE(fs::exists(file));
  expect_valid(RESULTS_SCHEMA, file);
  json j = json::parse(read_file(file));
  ASSERT_TRUE(j.contains("incomplete")) << j.dump(2);
  EXPECT_EQ(j["incomplete"]["reason"], "interrupted by SIGINT after 0 of 2 benchmarks");
  EXPECT_EQ(j["incomplete"]["exit_code"], 130);
  EXPECT_TRUE(j["benchmarks"].empty());
  EXPECT_NE(o.err.find("perfci: error: run: interrupted by SIGINT after 0 of 2 benchmarks"),
            std::string::npos)
      << o.err;
}

TEST(PerfciSignal, SigtermOfRunAlone) {
  TempDir dir("perfci-signal");
  Outcome o = interrupt(
      {{"run", "--binary", FX_SLEEPY, "--filter", "BM_sleep", "--quiet", "--out", "OUT/r.json"},
       {FX_SLEEPY},
       SIGTERM,
       false},
      dir);
  json j = json::parse(read_file(o.dir / "r.json"));
  EXPECT_EQ(j["incomplete"]["signal"], "SIGTERM");
  EXPECT_EQ(j["incomplete"]["exit_code"], 143);
}

// perfci check on a project whose baseline was taken before BM_sleep
// existed: the check runs it with the others, and is stopped.
TEST(PerfciSignal, CtrlCOfCheckNeverPasses) {
  TempDir dir("perfci-signal");
  const fs::path root = dir.path() / "project";
  fs::create_directories(root / "build" / "release");
  write_file_atomic(root / "perfci.json", R"({"schema": "perfci.config/1",
    "suites": [{"name": "fx", "binary": "bench", "min_time": 0.01}],
    "check": {"meters": ["wall"]}})");
  const fs::path bench = root / "build" / "release" / "bench";
  fs::copy_file(FX_A, bench);
  SubprocessOptions update;
  update.argv = {PERFCI_BINARY, "baseline", "update", "--no-build", "--quiet"};
  update.cwd = root.string();
  update.timeout = std::chrono::minutes(5);
  auto made = run_subprocess(update);
  ASSERT_TRUE(made.ok()) << made.describe() << made.err_tail;
  fs::copy_file(FX_SLEEPY, bench, fs::copy_options::overwrite_existing);

  Outcome o = interrupt(
      {{"check", "--config", (root / "perfci.json").string(), "--no-build", "--out", "OUT/reports"},
       {bench.string()},
       SIGINT,
       true},
      dir);
  const fs::path latest = o.dir / "reports" / "latest.json";
  expect_incomplete_report(latest, "SIGINT", "interrupted by SIGINT after 0 of 4 benchmarks");
  json j = json::parse(read_file(latest));
  EXPECT_NE(j["summary"]["outcome"], "pass");
  EXPECT_EQ(j["check"]["outcome"], "error");
  const std::string md = text_of(o.dir / "reports" / "latest.md");
  EXPECT_EQ(md.rfind("## perfci check: **error**\n\n**incomplete: interrupted by SIGINT after 0 "
                     "of 4 benchmarks (exit 130)",
                     0),
            0u)
      << md;
  EXPECT_NE(o.err.find("perfci: error: check: the run was interrupted by SIGINT"),
            std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace perfci
