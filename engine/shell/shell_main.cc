// engine-shell DB [-c SQL]: SQL from -c or from stdin, printed as the sqlite3
// shell prints it in list mode.
#include <cstring>
#include <iostream>
#include <string>

#include "engine/database.h"
#include "engine/shell/shell.h"

int main(int argc, char** argv) {
  std::string path;
  const char* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
      command = argv[++i];
    } else if (path.empty()) {
      path = argv[i];
    } else if (command == nullptr) {
      command = argv[i];  // sqlite3 DB "SQL"
    } else {
      std::cerr << "usage: engine-shell DB [-c SQL]\n";
      return 1;
    }
  }
  if (path.empty()) {
    std::cerr << "usage: engine-shell DB [-c SQL]\n";
    return 1;
  }
  auto db = engine::Database::Open(path);
  if (!db.ok()) {
    std::cerr << "Error: unable to open database \"" << path << "\": " << db.status().message()
              << "\n";
    return 1;
  }
  engine::shell::Shell shell(db->get(), std::cout, std::cerr);
  if (command != nullptr) return shell.RunCommand(command);
  return shell.RunScript(std::cin);
}
