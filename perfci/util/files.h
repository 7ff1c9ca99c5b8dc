// Small file-system helpers with error messages that name the file.
#pragma once

#include <filesystem>
#include <string>

namespace perfci {

// Throws perfci::Error naming the path when the file cannot be read.
std::string read_file(const std::filesystem::path& path);

// Writes to a temporary file beside `path`, then renames it over `path`, so a
// reader (or a crash) never sees a half-written file.
void write_file_atomic(const std::filesystem::path& path, const std::string& contents);

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it
// when the object goes out of scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "perfci");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace perfci
