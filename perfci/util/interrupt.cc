#include "perfci/util/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>

namespace perfci {
namespace {

// Everything the handler touches: lock-free atomics and two fds.
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};
constexpr int kMaxGroups = 64;
std::atomic<int> g_groups[kMaxGroups];

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

// Created once, before anything can wait on it: a wait that began without
// the pipe would not wake when the signal (or a test) sets the flag.
void open_pipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
  });
}

void wake() {
  if (g_pipe[1] < 0) return;
  char byte = 1;
  ssize_t ignored = ::write(g_pipe[1], &byte, 1);
  (void)ignored;
}

extern "C" void on_signal(int signo) {
  int saved_errno = errno;
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, signo)) {
    wake();
  } else {
    // The second signal: the user does not want to wait for the cleanup.
    for (auto& g : g_groups) {
      int pgid = g.load();
      if (pgid > 0) ::kill(-pgid, SIGKILL);
    }
    ::signal(signo, SIG_DFL);
    ::raise(signo);
  }
  errno = saved_errno;
}

}  // namespace

std::string signal_name(int signo) {
  if (signo == SIGINT) return "SIGINT";
  if (signo == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signo);
}

std::string Interrupted::signal_name() const { return perfci::signal_name(signo_); }

void install_interrupt_handlers() {
  open_pipe();
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: a blocking call returns EINTR and its loop looks again.
  sa.sa_flags = 0;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return g_signal.load(); }

void throw_if_interrupted() {
  if (int s = g_signal.load()) throw Interrupted(s);
}

int interrupt_fd() {
  open_pipe();
  return g_pipe[0];
}

void register_child_group(int pgid) {
  for (auto& g : g_groups) {
    int expected = 0;
    if (g.compare_exchange_strong(expected, pgid)) return;
  }
  // More than kMaxGroups at once: only the second-signal shortcut misses it;
  // the normal path still stops it.
}

void unregister_child_group(int pgid) {
  for (auto& g : g_groups) {
    int expected = pgid;
    if (g.compare_exchange_strong(expected, 0)) return;
  }
}

void set_interrupt_for_testing(int signo) {
  open_pipe();
  g_signal.store(signo);
  if (signo != 0) {
    wake();
  } else if (g_pipe[0] >= 0) {
    char buf[64];
    while (::read(g_pipe[0], buf, sizeof buf) > 0) {
    }
  }
}

}  // namespace perfci
