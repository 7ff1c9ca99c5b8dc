// engine-slt FILE...: runs sqllogictest scripts, one line per file and a
// closing "N passed, N failed"; exits non-zero when anything failed.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "engine/slt_runner/slt_runner.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: engine-slt FILE...\n";
    return 2;
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "engine-slt-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror("mkdtemp");
    return 2;
  }
  engine::slt::RunCounts total;
  for (int i = 1; i < argc; ++i) {
    const engine::slt::RunCounts c = engine::slt::RunScriptFile(argv[i], tmpl, std::cerr);
    std::cout << argv[i] << ": " << c.passed << " passed, " << c.failed << " failed\n";
    total.passed += c.passed;
    total.failed += c.failed;
  }
  std::cout << total.passed << " passed, " << total.failed << " failed\n";
  std::error_code ec;
  std::filesystem::remove_all(tmpl, ec);
  return total.failed == 0 ? 0 : 1;
}
