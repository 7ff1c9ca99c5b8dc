#include "perfci/util/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "perfci/util/interrupt.h"

extern char** environ;

namespace perfci {
namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_read() { close_fd(0); }
  void close_write() { close_fd(1); }
  void close_fd(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_fd(0);
    close_fd(1);
  }
};

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
  }
  return env;
}

// Only async-signal-safe calls between fork and exec: everything the child
// needs is prepared here, in the parent.
struct ExecPlan {
  std::vector<std::string> env_strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
};

ExecPlan make_plan(const SubprocessOptions& o) {
  ExecPlan plan;
  auto env = o.base_env ? *o.base_env : current_environment();
  for (const auto& [k, v] : o.set_env) env[k] = v;
  for (const auto& k : o.unset_env) env.erase(k);
  for (const auto& [k, v] : env) plan.env_strings.push_back(k + "=" + v);
  for (const auto& a : o.argv) plan.argv.push_back(const_cast<char*>(a.c_str()));
  plan.argv.push_back(nullptr);
  for (auto& s : plan.env_strings) plan.envp.push_back(s.data());
  plan.envp.push_back(nullptr);
  return plan;
}

[[noreturn]] void child_fail(int report_fd, int err) {
  ssize_t ignored = ::write(report_fd, &err, sizeof err);
  (void)ignored;
  ::_exit(127);
}

// execvpe's PATH search uses the parent's PATH; a child environment that sets
// its own PATH should be searched instead, so the lookup happens here.
std::string resolve_program(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  std::string path = "/usr/local/bin:/usr/bin:/bin";
  for (const auto& kv : env)
    if (kv.rfind("PATH=", 0) == 0) path = kv.substr(5);
  std::size_t start = 0;
  while (start <= path.size()) {
    auto end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

// How long a child's group gets between SIGTERM and SIGKILL when perfci is
// interrupted. SIGTERM first because cmake's ninja runs each compiler in a
// process group of its own and stops them only when it is told to: a
// SIGKILL of cmake's group would leave the compilers running.
constexpr auto kTerminateGrace = std::chrono::seconds(3);

// SIGTERM to the group, SIGKILL once the grace is over (or at once after
// the leader exited, for members that outlived it). Returns the leader's
// wait status.
int stop_group(pid_t pid) {
  ::kill(-pid, SIGTERM);
  const auto until = std::chrono::steady_clock::now() + kTerminateGrace;
  int status = 0;
  while (true) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= until) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    ::usleep(5000);
  }
  ::kill(-pid, SIGKILL);
  return status;
}

void append_tail(std::string& buf, const char* data, std::size_t n, std::size_t limit) {
  buf.append(data, n);
  if (buf.size() > 2 * limit + 4096) buf.erase(0, buf.size() - limit);
}

}  // namespace

std::string SubprocessResult::describe() const {
  if (!spawn_error.empty()) return "could not start: " + spawn_error;
  if (timed_out)
    return "timed out after " +
           std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()) +
           " ms and was killed";
  if (stopped) return "was stopped by perfci once it had what it needed";
  if (term_signal != 0)
    return "killed by signal " + std::to_string(term_signal) + " (" + ::strsignal(term_signal) +
           ")";
  return "exited with status " + std::to_string(exit_code);
}

std::string format_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'')
        out += "'\\''";
      else
        out += c;
    }
    out += '\'';
  }
  return out;
}

SubprocessResult run_subprocess(const SubprocessOptions& o) {
  // Nothing new starts once perfci was told to stop.
  throw_if_interrupted();
  SubprocessResult result;
  if (o.argv.empty() || o.argv[0].empty()) {
    result.spawn_error = "empty command";
    return result;
  }
  ExecPlan plan = make_plan(o);
  std::string program = resolve_program(o.argv[0], plan.env_strings);
  if (program.empty()) {
    result.spawn_error = o.argv[0] + ": command not found in PATH";
    return result;
  }

  Pipe out_pipe, err_pipe, in_pipe, report_pipe, gate_pipe;
  if (!report_pipe.open() || (o.before_exec && !gate_pipe.open()) ||
      (o.capture_stdout && !out_pipe.open()) || (o.capture_stderr && !err_pipe.open()) ||
      (!o.stdin_data.empty() && !in_pipe.open())) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (o.pin_cpu) {
    if (*o.pin_cpu < 0 || *o.pin_cpu >= CPU_SETSIZE) {
      result.spawn_error = "invalid CPU " + std::to_string(*o.pin_cpu);
      return result;
    }
    CPU_SET(*o.pin_cpu, &cpus);
  }

  // SIGINT and SIGTERM are blocked across fork: the child must never run
  // perfci's handler (it would wake the parent's wait without the parent
  // having been signalled); a signal meant for perfci stays pending in the
  // parent and arrives when the mask is restored.
  sigset_t stop_signals, saved_mask;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &stop_signals, &saved_mask);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
    result.spawn_error = std::string("fork: ") + std::strerror(err);
    return result;
  }
  if (pid == 0) {
    int report = report_pipe.fd[1];
    // Own process group, so a timeout kills whatever the benchmark spawned,
    // and a terminal's Ctrl-C reaches perfci alone, which stops the group.
    ::setpgid(0, 0);
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
    if (o.disable_aslr) {
      int persona = ::personality(0xffffffff);
      if (persona == -1 || ::personality(persona | ADDR_NO_RANDOMIZE) == -1)
        child_fail(report, errno);
    }
    if (o.pin_cpu && ::sched_setaffinity(0, sizeof cpus, &cpus) != 0) child_fail(report, errno);
    if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) child_fail(report, errno);
    int in_fd = o.stdin_data.empty() ? ::open("/dev/null", O_RDONLY) : in_pipe.fd[0];
    if (in_fd < 0 || ::dup2(in_fd, 0) < 0) child_fail(report, errno);
    if (o.capture_stdout && ::dup2(out_pipe.fd[1], 1) < 0) child_fail(report, errno);
    if (o.capture_stderr && ::dup2(err_pipe.fd[1], 2) < 0) child_fail(report, errno);
    if (o.before_exec) {
      // Wait for the parent's before_exec: it closes the gate when done.
      gate_pipe.close_write();
      char byte;
      while (::read(gate_pipe.fd[0], &byte, 1) < 0 && errno == EINTR) {
      }
    }
    ::execve(program.c_str(), plan.argv.data(), plan.envp.data());
    child_fail(report, errno);
  }
  ::setpgid(pid, pid);  // also from the parent: no race with an early kill
  register_child_group(pid);
  ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  // Whatever way this returns or throws, the group is no longer ours to kill.
  struct Registered {
    pid_t pid;
    ~Registered() { unregister_child_group(pid); }
  } registered{pid};
  if (o.before_exec) {
    gate_pipe.close_read();
    try {
      o.before_exec(static_cast<int>(pid));
    } catch (...) {
      stop_group(pid);
      throw;
    }
    gate_pipe.close_write();
  }
  report_pipe.close_write();
  out_pipe.close_write();
  err_pipe.close_write();
  in_pipe.close_read();

  int exec_errno = 0;
  ssize_t got = 0;
  do {
    got = ::read(report_pipe.fd[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.spawn_error = program + ": " + std::strerror(exec_errno);
    return result;
  }

  if (!o.stdin_data.empty()) {
    // Small inputs only (a script, a SQL file): a child that does not read
    // its stdin must not block us, hence non-blocking and best effort.
    ::fcntl(in_pipe.fd[1], F_SETFL, O_NONBLOCK);
    ssize_t ignored = ::write(in_pipe.fd[1], o.stdin_data.data(), o.stdin_data.size());
    (void)ignored;
    in_pipe.close_write();
  }

  auto deadline = start + o.timeout;
  char buf[65536];
  // A timeout stops the group the way an interruption does (stop_group),
  // so a build that overran leaves no compiler behind either.
  bool killed = false;
  int status = 0;
  const int stop_fd = interrupt_fd();
  // stop_when runs at most once per poll_interval, however much output comes.
  auto next_check = start + o.poll_interval;
  auto should_stop = [&] {
    if (!o.stop_when) return false;
    auto now = std::chrono::steady_clock::now();
    if (now < next_check) return false;
    next_check = now + o.poll_interval;
    return o.stop_when();
  };
  while (out_pipe.fd[0] >= 0 || err_pipe.fd[0] >= 0) {
    if (interrupt_signal() != 0) break;
    pollfd fds[3];
    int n = 0;
    if (out_pipe.fd[0] >= 0) fds[n++] = {out_pipe.fd[0], POLLIN, 0};
    if (err_pipe.fd[0] >= 0) fds[n++] = {err_pipe.fd[0], POLLIN, 0};
    const int outputs = n;
    if (stop_fd >= 0) fds[n++] = {stop_fd, POLLIN, 0};
    int wait_ms = -1;
    if (o.timeout.count() > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::max<long long>(0, left.count()));
    }
    const int poll_ms = static_cast<int>(o.poll_interval.count());
    const bool capped = o.stop_when && (wait_ms < 0 || wait_ms > poll_ms);
    if (capped) wait_ms = poll_ms;
    int ready = ::poll(fds, n, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (should_stop()) {
      status = stop_group(pid);
      killed = true;
      result.stopped = true;
      break;
    }
    if (ready == 0 && capped) continue;
    if (ready == 0) {
      status = stop_group(pid);
      killed = true;
      result.timed_out = true;
      break;
    }
    for (int i = 0; i < outputs; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      bool is_out = fds[i].fd == out_pipe.fd[0];
      if (r <= 0) {
        (is_out ? out_pipe : err_pipe).close_read();
        continue;
      }
      if (is_out) {
        std::size_t room =
            o.stdout_limit > result.out.size() ? o.stdout_limit - result.out.size() : 0;
        if (static_cast<std::size_t>(r) > room) result.out_truncated = true;
        result.out.append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(r)));
      } else {
        append_tail(result.err_tail, buf, static_cast<std::size_t>(r), o.stderr_tail);
      }
    }
  }

  while (!killed) {
    if (int signo = interrupt_signal()) {
      // The child's group is stopped and reaped before the stack unwinds.
      stop_group(pid);
      throw Interrupted(signo);
    }
    // Output closed but the child may still run: keep honouring the limit
    // and watching for a signal.
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (o.timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline) {
      status = stop_group(pid);
      killed = true;
      result.timed_out = true;
      break;
    }
    if (should_stop()) {
      status = stop_group(pid);
      killed = true;
      result.stopped = true;
      break;
    }
    if (stop_fd >= 0) {
      pollfd p{stop_fd, POLLIN, 0};
      ::poll(&p, 1, 2);
    } else {
      ::usleep(2000);
    }
  }
  result.elapsed = std::chrono::steady_clock::now() - start;
  if (result.err_tail.size() > o.stderr_tail)
    result.err_tail.erase(0, result.err_tail.size() - o.stderr_tail);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  if (result.timed_out || result.stopped) result.term_signal = 0;
  return result;
}

}  // namespace perfci
