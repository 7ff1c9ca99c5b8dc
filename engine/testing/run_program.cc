#include "engine/testing/run_program.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "engine/testing/temp_dir.h"

extern char** environ;

namespace engine::testing {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

ProgramOutput RunProgram(const std::vector<std::string>& argv, const std::string& stdin_data) {
  ProgramOutput result;
  if (argv.empty()) return result;
  // Files rather than pipes: nothing can deadlock on a full pipe, and no
  // thread is needed to drain two streams.
  TempDir dir;
  const std::string in = dir.file("stdin"), out = dir.file("stdout"), err = dir.file("stderr");
  std::ofstream(in, std::ios::binary) << stdin_data;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return result;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return result;
  }
  result.started = true;
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = ReadAll(out);
  result.err = ReadAll(err);
  return result;
}

std::string Sqlite3ShellPath() {
  for (const char* p : {"/usr/bin/sqlite3", "/usr/local/bin/sqlite3"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

}  // namespace engine::testing
