#include "perfci/baseline/baseline_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "perfci/util/files.h"

namespace perfci::baseline {

namespace fs = std::filesystem;

fs::path baseline_path(const fs::path& root, const std::string& profile_id,
                       const std::string& suite) {
  return root / profile_id / (suite + ".json");
}

std::vector<std::string> stored_profiles(const fs::path& root, const std::string& suite) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    std::error_code e2;
    if (entry.is_directory(e2) && fs::exists(entry.path() / (suite + ".json"), e2))
      out.push_back(entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Baseline load_baseline(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw MissingBaseline(file.string() + ": no such baseline");
  if (!fs::is_regular_file(file, ec)) throw CorruptBaseline(file.string() + ": not a regular file");
  std::string text;
  try {
    text = read_file(file);
  } catch (const Error& e) {
    throw CorruptBaseline(e.what());
  }
  try {
    return parse_baseline(text, file.string());
  } catch (const Error& e) {
    throw CorruptBaseline(e.what());
  }
}

void save_baseline(const Baseline& baseline, const fs::path& file) {
  std::string text = baseline_to_json(baseline).dump(2) + "\n";
  // What check will read must parse; refuse before touching the file.
  try {
    parse_baseline(text, file.string() + " (new content)");
  } catch (const Error& e) {
    throw Error(std::string("refusing to write an invalid baseline: ") + e.what());
  }
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw Error(file.parent_path().string() + ": cannot create the folder: " + ec.message());
  write_file_atomic(file, text);
}

}  // namespace perfci::baseline
