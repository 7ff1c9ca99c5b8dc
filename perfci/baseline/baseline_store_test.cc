#include "perfci/baseline/baseline_store.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <vector>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/util/files.h"

namespace perfci::baseline {
namespace {

namespace fs = std::filesystem;

TEST(BaselineStore, PathsAndProfiles) {
  TempDir dir;
  EXPECT_EQ(baseline_path(dir.path(), "x86_64-debian12-gcc12-release", "engine"),
            dir.path() / "x86_64-debian12-gcc12-release" / "engine.json");
  EXPECT_TRUE(stored_profiles(dir.path() / "none", "engine").empty());
  Baseline b = fixtures::sample_baseline({{"engine/a", {1000.0, std::nullopt}}});
  save_baseline(b, baseline_path(dir.path(), "p2", "engine"));
  save_baseline(b, baseline_path(dir.path(), "p1", "engine"));
  save_baseline(b, baseline_path(dir.path(), "p3", "other"));
  EXPECT_EQ(stored_profiles(dir.path(), "engine"), (std::vector<std::string>{"p1", "p2"}));
}

TEST(BaselineStore, MissingAndCorruptAreTold) {
  TempDir dir;
  fs::path file = dir.path() / "p" / "engine.json";
  EXPECT_THROW(load_baseline(file), MissingBaseline);
  fs::create_directories(file.parent_path());
  write_file_atomic(file, "{\"schema\": \"perfci.baseline/1\", \"profile\":");
  try {
    load_baseline(file);
    FAIL();
  } catch (const CorruptBaseline& e) {
    EXPECT_NE(std::string(e.what()).find(file.string() + ": not valid JSON"), std::string::npos)
        << e.what();
  }
  fs::remove(file);
  fs::create_directories(file);
  EXPECT_THROW(load_baseline(file), CorruptBaseline);
}

TEST(BaselineStore, SavedBaselineLoadsBack) {
  TempDir dir;
  fs::path file = dir.path() / "deep" / "p" / "engine.json";
  Baseline b = fixtures::sample_baseline({{"engine/a", {1000.0, 10.0}}});
  save_baseline(b, file);
  Baseline c = load_baseline(file);
  EXPECT_DOUBLE_EQ(*c.results.find("engine/a")->real_time_ns, 10.0);
  // Nothing but the file itself is left in the folder (no temporary files).
  int entries = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path())) entries += e.path() != file;
  EXPECT_EQ(entries, 0);
}

TEST(BaselineStore, AnInvalidBaselineNeverReplacesAGoodOne) {
  TempDir dir;
  fs::path file = dir.path() / "p" / "engine.json";
  Baseline good = fixtures::sample_baseline({{"engine/a", {1000.0, std::nullopt}}});
  save_baseline(good, file);
  std::string before = read_file(file);

  Baseline bad = good;
  bad.results.benchmarks[0].error = "killed by signal 11";
  EXPECT_THROW(save_baseline(bad, file), Error);
  bad = good;
  bad.provenance.reason = "";
  EXPECT_THROW(save_baseline(bad, file), Error);
  bad = good;
  bad.results.benchmarks.clear();
  EXPECT_THROW(save_baseline(bad, file), Error);
  EXPECT_EQ(read_file(file), before);
}

TEST(BaselineStore, AFailedRenameLeavesNoTemporaryFileBehind) {
  // The target is a folder that is not empty: the rename at the end fails,
  // whoever runs the test (root included).
  TempDir dir;
  fs::path file = dir.path() / "p" / "engine.json";
  fs::create_directories(file / "keep");
  Baseline b = fixtures::sample_baseline({{"engine/a", {1000.0, std::nullopt}}});
  EXPECT_THROW(save_baseline(b, file), Error);
  EXPECT_TRUE(fs::is_directory(file / "keep"));
  int entries = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path())) entries += e.path() != file;
  EXPECT_EQ(entries, 0);
}

// A write that dies half-way (here: the file-size limit, which binds root
// too, so the test runs everywhere) throws, leaves the good baseline as it
// was, and leaves no temporary file behind.
TEST(BaselineStore, AHalfWrittenBaselineNeverReplacesTheOldOne) {
  TempDir dir;
  fs::path file = dir.path() / "p" / "engine.json";
  Baseline good = fixtures::sample_baseline({{"engine/a", {1000.0, std::nullopt}}});
  save_baseline(good, file);
  const std::string before = read_file(file);

  Baseline next = good;
  next.provenance.reason = std::string(64 << 10, 'r');  // larger than the limit below
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 4096;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of a signal
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string error;
  try {
    save_baseline(next, file);
  } catch (const Error& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);

  EXPECT_NE(error.find("write failed"), std::string::npos) << error;
  EXPECT_EQ(read_file(file), before);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(file.parent_path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"engine.json"});
}

}  // namespace
}  // namespace perfci::baseline
