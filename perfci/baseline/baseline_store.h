// Where baselines live and how they are read and written: one file per
// suite in a folder per profile, baselines/<profile id>/<suite>.json.
// Reading tells a missing baseline (the remedy is a command to create one)
// from a corrupt one (the file and the problem); writing goes through a
// temporary file and a rename after the new content has been read back, so
// a half-written or invalid baseline never replaces a good one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "perfci/baseline/baseline.h"
#include "perfci/util/error.h"

namespace perfci::baseline {

class MissingBaseline : public Error {
 public:
  using Error::Error;
};

class CorruptBaseline : public Error {
 public:
  using Error::Error;
};

// <root>/<profile_id>/<suite>.json
std::filesystem::path baseline_path(const std::filesystem::path& root,
                                    const std::string& profile_id, const std::string& suite);

// The profile ids under `root` that hold a baseline of `suite`, sorted.
std::vector<std::string> stored_profiles(const std::filesystem::path& root,
                                         const std::string& suite);

// Throws MissingBaseline when the file does not exist, CorruptBaseline
// (naming the file and the problem) when it cannot be read or parsed.
Baseline load_baseline(const std::filesystem::path& file);

// Serializes, reads the text back through parse_baseline, and only then
// writes it atomically (creating the folder). Throws perfci::Error and leaves
// any existing file untouched when anything fails.
void save_baseline(const Baseline& baseline, const std::filesystem::path& file);

}  // namespace perfci::baseline
