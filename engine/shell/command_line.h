// engine-shell's command line, read as sqlite3's shell reads its own: an
// option starts with '-' or "--" wherever it stands, -help and -version
// answer and exit, and an unknown option is an error that names it before
// anything is opened (so that `engine-shell --help` creates no file named
// "--help").
#pragma once

#include <string>
#include <string_view>

namespace engine::shell {

inline constexpr const char* kEngineVersion = "0.1.0";

struct CommandLine {
  enum class Action { kRun, kHelp, kVersion, kError };
  Action action = Action::kRun;
  std::string path;     // the database (kRun): ":memory:" when none is named
  std::string command;  // SQL from -c or the second argument
  bool has_command = false;
  std::string error;  // kError: the message, without the program name
};

CommandLine ParseCommandLine(int argc, const char* const* argv);

// What -help prints (on stderr, as sqlite3 does), for program name argv0.
std::string UsageText(std::string_view argv0);
// What -version prints (on stdout).
std::string VersionText();

}  // namespace engine::shell
