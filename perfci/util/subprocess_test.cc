#include "perfci/util/subprocess.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <thread>

#include "perfci/util/files.h"
#include "perfci/util/interrupt.h"

namespace perfci {
namespace {

SubprocessResult sh(const std::string& script, SubprocessOptions o = {}) {
  o.argv = {"/bin/sh", "-c", script};
  return run_subprocess(o);
}

TEST(Subprocess, CapturesStdoutAndExitStatus) {
  auto r = sh("printf 'hello\\n'; echo oops >&2; exit 3");
  EXPECT_TRUE(r.spawn_error.empty());
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err_tail, "oops\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "exited with status 3");
}

TEST(Subprocess, ArgumentsAreNeverInterpretedByAShell) {
  SubprocessOptions o;
  o.argv = {"printf", "%s|", "a b", ";echo injected", "$(id)"};
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "a b|;echo injected|$(id)|");
}

TEST(Subprocess, ReportsSignals) {
  auto r = sh("kill -SEGV $$");
  EXPECT_EQ(r.term_signal, SIGSEGV);
  EXPECT_NE(r.describe().find("signal 11"), std::string::npos) << r.describe();
}

TEST(Subprocess, MissingProgramIsASpawnError) {
  SubprocessOptions o;
  o.argv = {"/nonexistent/perfci-no-such-binary"};
  auto r = run_subprocess(o);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.spawn_error.find("No such file"), std::string::npos) << r.spawn_error;
  o.argv = {"perfci-no-such-command-in-path"};
  r = run_subprocess(o);
  EXPECT_NE(r.spawn_error.find("not found"), std::string::npos) << r.spawn_error;
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  SubprocessOptions o;
  o.timeout = std::chrono::milliseconds(300);
  // The background grandchild keeps stdout open: only a group kill ends it.
  auto r = sh("sleep 30 & echo $!; wait", o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.describe().find("timed out"), std::string::npos);
  pid_t grandchild = std::stoi(r.out);
  // SIGKILL delivery is asynchronous; give the kernel a moment to reap.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = ::kill(grandchild, 0) != 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // A zombie still answers kill(0); check its state instead.
  if (!gone) {
    std::string stat_path = "/proc/" + std::to_string(grandchild) + "/stat";
    SubprocessOptions cat;
    cat.argv = {"cat", stat_path};
    auto s = run_subprocess(cat);
    gone = !s.ok() || s.out.find(") Z") != std::string::npos;
  }
  EXPECT_TRUE(gone);
}

// The timeout stops the group as an interruption does: SIGTERM (which a
// cmake's ninja passes on to its compilers), then SIGKILL for a child that
// ignores it.
TEST(Subprocess, ATimeoutStillEndsAChildThatIgnoresSigterm) {
  SubprocessOptions o;
  o.timeout = std::chrono::milliseconds(200);
  auto r = sh("trap '' TERM; sleep 30", o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.elapsed, std::chrono::seconds(20));
}

TEST(Subprocess, EnvironmentIsControlled) {
  SubprocessOptions o;
  o.base_env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}, {"KEEP", "1"}};
  o.set_env = {{"PERFCI_X", "a=b c"}};
  o.unset_env = {"KEEP"};
  auto r = sh("echo \"${PERFCI_X}|${KEEP:-unset}|${HOME:-nohome}\"", o);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "a=b c|unset|nohome\n");
}

TEST(Subprocess, DisablesAslr) {
  SubprocessOptions o;
  o.disable_aslr = true;
  o.argv = {"cat", "/proc/self/personality"};
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << r.describe();
  // ADDR_NO_RANDOMIZE is 0x0040000.
  EXPECT_EQ(std::stoul(r.out, nullptr, 16) & 0x0040000u, 0x0040000u) << r.out;
}

TEST(Subprocess, PinsToACpu) {
  SubprocessOptions o;
  o.pin_cpu = 0;
  auto r = sh("grep Cpus_allowed_list /proc/self/status", o);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_NE(r.out.find(":\t0\n"), std::string::npos) << r.out;
}

TEST(Subprocess, WorkingDirectoryAndStdin) {
  SubprocessOptions o;
  o.cwd = "/";
  o.stdin_data = "from stdin\n";
  auto r = sh("pwd; cat", o);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "/\nfrom stdin\n");
}

TEST(Subprocess, KeepsOnlyTheTailOfStderrAndLimitsStdout) {
  SubprocessOptions o;
  o.stderr_tail = 10;
  o.stdout_limit = 5;
  auto r =
      sh("i=0; while [ $i -lt 2000 ]; do echo line$i >&2; i=$((i+1)); done; echo END >&2;"
         "echo 0123456789",
         o);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.err_tail.size(), 10u);
  EXPECT_EQ(r.err_tail.substr(r.err_tail.size() - 4), "END\n");
  EXPECT_EQ(r.out, "01234");
  EXPECT_TRUE(r.out_truncated);
}

// --- SIGINT / SIGTERM (perfci/util/interrupt.h) ---------------------------

bool process_gone(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    if (::kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    if (line.find(") Z") != std::string::npos) return true;  // a zombie: dead, not yet reaped
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The flag stays set until reset: every test resets it, whatever happens.
struct InterruptReset {
  ~InterruptReset() { set_interrupt_for_testing(0); }
};

std::string read_when_present(const std::string& path) {
  for (int i = 0; i < 3000; ++i) {
    std::ifstream in(path);
    std::string text;
    if (in && std::getline(in, text) && !text.empty()) return text;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return {};
}

TEST(SubprocessInterrupt, NothingStartsOnceInterrupted) {
  InterruptReset reset;
  set_interrupt_for_testing(SIGINT);
  try {
    sh("echo should-not-run");
    ADD_FAILURE() << "a child started after SIGINT";
  } catch (const Interrupted& stop) {
    EXPECT_EQ(stop.signal(), SIGINT);
    EXPECT_EQ(stop.signal_name(), "SIGINT");
  }
}

// The signal while the child runs: its whole group (the background
// grandchild too) is stopped and the call throws instead of returning.
void expect_group_stopped(const std::string& script, int signo) {
  InterruptReset reset;
  TempDir dir("perfci-int");
  const std::string pid_file = (dir.path() / "pid").string();
  std::thread signaller([&] {
    // The grandchild is running once it wrote its pid.
    read_when_present(pid_file);
    set_interrupt_for_testing(signo);
  });
  bool thrown = false;
  try {
    sh(script + " & echo $! > " + pid_file + "; wait");
  } catch (const Interrupted& stop) {
    thrown = true;
    EXPECT_EQ(stop.signal(), signo);
  }
  signaller.join();
  EXPECT_TRUE(thrown);
  const std::string pid = read_when_present(pid_file);
  ASSERT_FALSE(pid.empty());
  EXPECT_TRUE(process_gone(std::stoi(pid))) << "grandchild " << pid << " survived";
}

TEST(SubprocessInterrupt, StopsTheChildsWholeGroup) { expect_group_stopped("sleep 600", SIGTERM); }

// A child that ignores SIGTERM gets SIGKILL after the grace.
TEST(SubprocessInterrupt, SigkillAfterTheGrace) {
  expect_group_stopped("trap '' TERM; sleep 600", SIGINT);
}

TEST(SubprocessInterrupt, SignalNames) {
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_name(SIGHUP), "signal 1");
}

// What stop_when is for: a child that would run on (valgrind after its third
// dump) is stopped once a condition holds, and the result says so.
TEST(Subprocess, StopWhenEndsTheChildAndSaysStopped) {
  TempDir dir("perfci-stop");
  const std::string flag = (dir.path() / "flag").string();
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(60);
  int polls = 0;
  o.stop_when = [&] {
    ++polls;
    return std::ifstream(flag).good();
  };
  auto r = sh("echo started; : > '" + flag + "'; sleep 600", o);
  EXPECT_TRUE(r.stopped);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_GE(polls, 1);
  EXPECT_EQ(r.out, "started\n");
  EXPECT_EQ(r.describe(), "was stopped by perfci once it had what it needed");
}

TEST(Subprocess, StopWhenNeverTrueLetsTheChildFinish) {
  SubprocessOptions o;
  o.stop_when = [] { return false; };
  auto r = sh("sleep 0.2; echo done", o);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.out, "done\n");
}

// before_exec runs while the child waits: the child's program sees what it
// did (here a file named by the pid), and the pid is the child's own.
TEST(Subprocess, BeforeExecRunsBeforeTheProgramStarts) {
  TempDir dir("perfci-gate");
  int seen_pid = 0;
  SubprocessOptions o;
  o.before_exec = [&](int pid) {
    seen_pid = pid;
    std::ofstream((dir.path() / ("pid." + std::to_string(pid))).string()) << "x";
  };
  auto r = sh("test -f '" + dir.path().string() + "/pid.'$$ && echo $$", o);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err_tail;
  EXPECT_GT(seen_pid, 0);
  EXPECT_EQ(r.out, std::to_string(seen_pid) + "\n");
}

TEST(Subprocess, FormatCommandQuotes) {
  EXPECT_EQ(format_command({"a", "b c", "it's"}), "a 'b c' 'it'\\''s'");
}

}  // namespace
}  // namespace perfci
