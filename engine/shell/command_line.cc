#include "engine/shell/command_line.h"

namespace engine::shell {

CommandLine ParseCommandLine(int argc, const char* const* argv) {
  CommandLine cl;
  auto fail = [&cl](std::string msg) {
    cl.action = CommandLine::Action::kError;
    cl.error = std::move(msg);
    return cl;
  };
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.size() > 1 && arg[0] == '-') {
      // sqlite3 takes "--x" for "-x", and names it so in its errors.
      if (arg.size() > 2 && arg[1] == '-') arg.remove_prefix(1);
      if (arg == "-help") {
        cl.action = CommandLine::Action::kHelp;
        return cl;
      }
      if (arg == "-version") {
        cl.action = CommandLine::Action::kVersion;
        return cl;
      }
      if (arg == "-c") {
        if (i + 1 >= argc) return fail("missing argument to -c");
        cl.command = argv[++i];
        cl.has_command = true;
        continue;
      }
      return fail("unknown option: " + std::string(arg));
    }
    if (positional == 0) {
      cl.path = std::string(arg);
    } else if (positional == 1 && !cl.has_command) {
      cl.command = std::string(arg);  // sqlite3 DB "SQL"
      cl.has_command = true;
    } else {
      return fail("too many arguments: " + std::string(arg));
    }
    ++positional;
  }
  // Without a name sqlite3 opens a transient in-memory database; an empty
  // name ("") is its private temporary database, and stays one.
  if (positional == 0) cl.path = ":memory:";
  return cl;
}

std::string UsageText(std::string_view argv0) {
  std::string s = "Usage: " + std::string(argv0) + " [OPTIONS] FILENAME [SQL]\n";
  s += "FILENAME is the name of a database in the SQLite 3 file format. A new database\n"
       "is created if the file does not previously exist. Defaults to :memory:.\n"
       "FILENAME may be a URI (file:data.db?mode=ro). SQL runs and the shell exits;\n"
       "without it, SQL and dot-commands are read from standard input.\n"
       "OPTIONS include:\n"
       "   -c SQL               run SQL and exit (the same as the SQL argument)\n"
       "   -help                show this message\n"
       "   -version             show the engine's version\n";
  return s;
}

std::string VersionText() {
  return std::string(kEngineVersion) + " engine-shell (SQLite 3 file format)\n";
}

}  // namespace engine::shell
