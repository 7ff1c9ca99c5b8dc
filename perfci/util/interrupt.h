// SIGINT and SIGTERM: perfci stops what it runs, keeps what it measured and
// exits 128 + the signal. The handler only records the signal and writes a
// byte to a self-pipe (async-signal-safe); run_subprocess, which every
// child goes through, watches that pipe, stops its child's process group
// and throws Interrupted, so the stack unwinds (every TempDir is removed)
// up to the command, which writes what was measured as an incomplete
// report. A second signal while the first is handled kills every live
// child group at once and ends perfci with the default action.
#pragma once

#include <string>

namespace perfci {

// Thrown once perfci got SIGINT or SIGTERM. Deliberately not a
// std::exception: a `catch (const std::exception&)` that turns a failing
// step into a note must not swallow the user's request to stop.
class Interrupted {
 public:
  explicit Interrupted(int signo) : signo_(signo) {}
  int signal() const { return signo_; }
  // "SIGINT", "SIGTERM"
  std::string signal_name() const;

 private:
  int signo_;
};

// Installs the SIGINT and SIGTERM handlers and the self-pipe; main calls it
// once. Without it (unit tests) nothing is ever interrupted.
void install_interrupt_handlers();

// The signal received (SIGINT or SIGTERM), or 0.
int interrupt_signal();

// Throws Interrupted when a signal was received.
void throw_if_interrupted();

// The read end of the self-pipe (created on first use): readable once a
// signal was received (the byte is never consumed); -1 only when no pipe
// could be made.
int interrupt_fd();

// "SIGINT", "SIGTERM", else "signal N".
std::string signal_name(int signo);

// Live child process groups, so that a second signal can kill them from the
// handler. run_subprocess registers each child between fork and reaping.
void register_child_group(int pgid);
void unregister_child_group(int pgid);

// Unit tests: pretend `signo` arrived (0: forget it).
void set_interrupt_for_testing(int signo);

}  // namespace perfci
