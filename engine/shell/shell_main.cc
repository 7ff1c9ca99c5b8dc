// engine-shell [OPTIONS] [DB] [SQL]: SQL from -c, the SQL argument or stdin,
// printed as the sqlite3 shell prints it in list mode. Without DB, a
// transient in-memory database, as sqlite3 opens; DB may be a file: URI.
#include <iostream>
#include <string>
#include <utility>

#include "engine/database.h"
#include "engine/shell/command_line.h"
#include "engine/shell/shell.h"

int main(int argc, char** argv) {
  // The SQL comes through std::cin and the rows go out through std::cout:
  // tied to C's stdio, libstdc++ reads stdin a character at a time (getc)
  // and a bulk load spends a visible share of its time there. Nothing here
  // writes through stdio, so the streams keep buffers of their own.
  std::ios::sync_with_stdio(false);
  using engine::shell::CommandLine;
  const char* argv0 = argc > 0 ? argv[0] : "engine-shell";
  const CommandLine cl = engine::shell::ParseCommandLine(argc, argv);
  switch (cl.action) {
    case CommandLine::Action::kHelp:
      std::cerr << engine::shell::UsageText(argv0);
      return 1;  // as sqlite3 -help
    case CommandLine::Action::kVersion:
      std::cout << engine::shell::VersionText();
      return 0;
    case CommandLine::Action::kError:
      std::cerr << argv0 << ": Error: " << cl.error << "\nUse -help for a list of options.\n";
      return 1;
    case CommandLine::Action::kRun:
      break;
  }
  auto db = engine::Database::Open(cl.path, engine::shell::Shell::OpenOptions());
  if (!db.ok()) {
    std::cerr << "Error: unable to open database \"" << cl.path << "\": " << db.status().message()
              << "\n";
    return 1;
  }
  engine::shell::Shell shell(std::move(*db), std::cout, std::cerr);
  if (cl.has_command) return shell.RunCommand(cl.command);
  return shell.RunScript(std::cin);
}
