// Runs a child process from an argv vector (never through a shell), with a
// controlled environment, optional CPU pinning, ASLR disabled and a timeout
// that stops the child's whole process group. Every perfci component that
// launches something (benchmark trials, valgrind, git, cmake) goes through
// here so that measurement conditions are the same everywhere, and so that
// a SIGINT or SIGTERM of perfci stops every child it started.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

struct SubprocessOptions {
  // argv[0] is looked up in PATH when it contains no '/'.
  std::vector<std::string> argv;
  // Starting environment: the parent's when unset, exactly this when set.
  std::optional<std::map<std::string, std::string>> base_env;
  // Applied on top of the starting environment.
  std::map<std::string, std::string> set_env;
  std::vector<std::string> unset_env;
  // Working directory of the child; the parent's when empty.
  std::string cwd;
  // Pin the child (and what it starts) to this CPU.
  std::optional<int> pin_cpu;
  // personality(ADDR_NO_RANDOMIZE): identical addresses in every run, which
  // callgrind counts and hash-table layouts depend on.
  bool disable_aslr = false;
  // Zero means no limit. On expiry the process group gets SIGTERM, and
  // SIGKILL 3 s later if it is still there (as on an interruption).
  std::chrono::milliseconds timeout{0};
  // Keep all of stdout up to this size; beyond it the result is flagged.
  std::size_t stdout_limit = std::size_t{256} << 20;
  // Only the end of stderr is kept: that is where the reason for a failure is.
  std::size_t stderr_tail = std::size_t{16} << 10;
  // When false the child's stdout/stderr go to the parent's.
  bool capture_stdout = true;
  bool capture_stderr = true;
  // Written to the child's stdin, which is then closed (empty: /dev/null).
  std::string stdin_data;
  // Called in the parent with the child's pid after fork, while the child
  // waits before its exec: what is attached to the pid here (perf events
  // with enable_on_exec) sees the program from its first instruction. The
  // child execs once it returns.
  std::function<void(int pid)> before_exec;
  // Polled every poll_interval while the child runs; when it returns true
  // the child's group is stopped as on a timeout, and the result says
  // `stopped` (the caller had what it needed, e.g. callgrind's third dump).
  // It may also do periodic work (drain a sampling buffer).
  std::function<bool()> stop_when;
  std::chrono::milliseconds poll_interval{50};
};

struct SubprocessResult {
  // The exec itself failed (e.g. ENOENT): set with a message, nothing ran.
  std::string spawn_error;
  int exit_code = -1;      // valid when the child exited normally
  int term_signal = 0;     // non-zero when killed by a signal
  bool timed_out = false;  // killed by perfci because of the timeout
  bool stopped = false;    // stopped by perfci because stop_when said so
  std::string out;
  bool out_truncated = false;
  std::string err_tail;
  std::chrono::nanoseconds elapsed{0};

  bool ok() const {
    return spawn_error.empty() && !timed_out && !stopped && term_signal == 0 && exit_code == 0;
  }
  // "exited with status 3", "killed by signal 11 (Segmentation fault)", ...
  std::string describe() const;
};

// Never throws for a failing child; the result says what happened. Throws
// perfci::Interrupted (perfci/util/interrupt.h) when perfci got SIGINT or
// SIGTERM, before starting the child or while it runs: then the child's
// process group has had SIGTERM, and SIGKILL after a 3 s grace, and the
// child is reaped.
SubprocessResult run_subprocess(const SubprocessOptions& options);

// A one-line, copy-pasteable rendering of argv for messages (quoted where
// needed); never executed.
std::string format_command(const std::vector<std::string>& argv);

}  // namespace perfci
