// End to end: `perfci bisect` on a throw-away git project of 16 commits (the
// hooked tiny project of git_project_testing.h). Commit 9 makes work() do
// 20% more rounds; commit 7 does not compile (commit 8 repairs it); every
// other commit changes a comment or an unrelated file. Callgrind only, so
// every verdict is deterministic; no timing is asserted.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/git_project_testing.h"
#include "tests/perfci_cli_testing.h"
#include "tests/report_schema_check.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace perfci::testing;  // NOLINT(google-build-using-namespace)

constexpr int kCommits = 16;
constexpr int kCulprit = 9;
constexpr int kBroken = 7;

// The project's commits, oldest first (hashes[k - 1] is commit k), in a
// repository of its own.
struct Project {
  TempDir dir{"perfci-bisect"};
  fs::path repo = dir.path() / "repo";
  std::vector<std::string> hashes;

  void create() {
    fs::create_directories(repo);
    write_hooked_project(repo, 4000);
    git(repo, {"init", "-q"});
    for (int k = 1; k <= kCommits; ++k) {
      const int rounds = k >= kCulprit ? 4800 : 4000;
      std::string extra = "// commit " + std::to_string(k) + "\n";
      std::string subject = "commit " + std::to_string(k) + ": reword a comment";
      if (k == kCulprit) subject = "commit 9: work() does 20% more rounds";
      if (k == kBroken) {
        extra += "this does not compile;\n";
        subject = "commit 7: break the build";
      }
      if (k == kBroken + 1) subject = "commit 8: repair the build";
      if (k % 3 == 0 && k != kCulprit) {
        // An unrelated file only.
        write_file_atomic(repo / "NOTES.txt", "note " + std::to_string(k) + "\n");
        subject = "commit " + std::to_string(k) + ": notes";
      } else {
        write_file_atomic(repo / "bench.cc", hooked_bench_source(rounds, extra));
      }
      git(repo, {"add", "."});
      git(repo, {"commit", "-q", "-m", subject});
      hashes.push_back(head(repo));
    }
  }

  SubprocessResult bisect(std::vector<std::string> args) const {
    args.insert(args.begin(), "bisect");
    args.push_back("--quiet");
    return perfci(std::move(args));
  }

  SubprocessResult perfci(std::vector<std::string> args) const {
    SubprocessOptions o;
    o.argv = {PERFCI_BINARY};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.cwd = repo.string();
    o.unset_env = {"GITHUB_ACTIONS"};
    o.timeout = std::chrono::minutes(20);
    return run_subprocess(o);
  }
};

// One test: ctest runs each case in a process of its own, and the cases
// share the cached builds of one repository.
TEST(PerfciBisect, NamesTheCulpritSkipsTheBrokenCommitAndRefusesWhatItCannotBisect) {
  Project p;
  ASSERT_NO_FATAL_FAILURE(p.create());
  const auto& hashes = p.hashes;
  ASSERT_EQ(hashes.size(), static_cast<std::size_t>(kCommits));
  const fs::path dir = p.dir.path();
  auto bisect = [&p](std::vector<std::string> args) { return p.bisect(std::move(args)); };

  // Refused before anything is built.
  auto unknown = bisect({"no-such-revision", hashes.back(), "--benchmark", "BM_work"});
  EXPECT_EQ(unknown.exit_code, 2) << explain(unknown);
  EXPECT_TRUE(has(unknown.err_tail, "unknown revision 'no-such-revision'")) << unknown.err_tail;

  auto swapped = bisect({hashes.back(), hashes.front(), "--benchmark", "BM_work"});
  EXPECT_EQ(swapped.exit_code, 2) << explain(swapped);
  EXPECT_TRUE(has(swapped.err_tail, "is not an ancestor of BAD")) << swapped.err_tail;

  auto same = bisect({hashes.back(), "HEAD", "--benchmark", "BM_work"});
  EXPECT_EQ(same.exit_code, 2) << explain(same);
  EXPECT_TRUE(has(same.err_tail, "the same commit")) << same.err_tail;

  auto worktree = bisect({hashes.front(), "WORKTREE", "--benchmark", "BM_work"});
  EXPECT_EQ(worktree.exit_code, 2) << explain(worktree);

  auto metric = bisect(
      {hashes.front(), hashes.back(), "--benchmark", "BM_work", "--metric", "counters/cycles"});
  EXPECT_EQ(metric.exit_code, 2) << explain(metric);
  EXPECT_TRUE(has(metric.err_tail, "--metric")) << metric.err_tail;

  // GOOD is built (or taken from the cache) to learn it has no such benchmark.
  auto missing = bisect({hashes.front(), hashes.back(), "--benchmark", "BM_nothing"});
  EXPECT_EQ(missing.exit_code, 2) << explain(missing);
  EXPECT_TRUE(has(missing.err_tail, "no benchmark named 'BM_nothing'")) << missing.err_tail;
  EXPECT_TRUE(has(missing.err_tail, "BM_work")) << missing.err_tail;  // what it has instead

  // The bisect: GOOD commit 1, BAD commit 16. Commit 7 must really not build
  // for its skip to mean anything: it is the neighbour of a probe.
  const fs::path out = dir / "bisect.json";
  const fs::path db = dir / "history.sqlite";
  auto r = bisect({hashes.front(), hashes.back(), "--benchmark", "BM_work", "--jobs", "1", "--out",
                   out.string(), "--history", db.string()});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_TRUE(has(r.err_tail, "history: recorded run 1 in " + db.string())) << r.err_tail;
  expect_valid(out, BISECT_SCHEMA);
  json rep = load(out);
  EXPECT_EQ(rep["schema"], "perfci.bisect/1");
  EXPECT_EQ(rep["outcome"], "found");
  EXPECT_EQ(rep["metric"]["kind"], "callgrind");
  EXPECT_EQ(rep["metric"]["threshold"], 0.002);
  EXPECT_EQ(rep["candidates"], kCommits - 1);
  // n = 16 commits in GOOD..BAD, GOOD included: at most ceil(log2 16) + 1 builds.
  EXPECT_EQ(rep["max_builds"], 5);
  EXPECT_LE(rep["builds"].get<int>(), 5) << rep["commits"].dump(1);
  EXPECT_GE(rep["builds"].get<int>(), 2);

  const json& culprit = rep["first_bad"];
  ASSERT_TRUE(culprit.is_object()) << rep.dump(1);
  EXPECT_EQ(culprit["commit"], hashes[kCulprit - 1]);
  EXPECT_EQ(culprit["subject"], "commit 9: work() does 20% more rounds");
  EXPECT_EQ(culprit["parent"], hashes[kCulprit - 2]);
  EXPECT_FALSE(culprit["merge"].get<bool>());
  EXPECT_GT(culprit["ratio"].get<double>(), 1.1);
  EXPECT_LT(culprit["ratio"].get<double>(), 1.3);
  const json& symbols = culprit["explanation"]["symbols"];
  ASSERT_FALSE(symbols.empty()) << culprit.dump(1);
  EXPECT_TRUE(has(symbols[0]["symbol"].get<std::string>(), "work(")) << symbols.dump(1);
  EXPECT_EQ(symbols[0]["change"], "grew");

  // Every commit of the range is listed; the measured ones carry a value,
  // the broken one was skipped with its build error.
  ASSERT_EQ(rep["commits"].size(), static_cast<std::size_t>(kCommits));
  int measured = 0;
  for (const auto& c : rep["commits"]) {
    const int k = c["position"].get<int>() + 1;
    EXPECT_EQ(c["commit"], hashes[static_cast<std::size_t>(k - 1)]);
    if (c["status"] == "good" || c["status"] == "bad" || c["status"] == "reference") {
      ++measured;
      EXPECT_TRUE(c["value"].is_number()) << c.dump(1);
      EXPECT_TRUE(c["result"]["callgrind"].is_object()) << c.dump(1);
      EXPECT_EQ(c["status"] == "bad", k >= kCulprit) << c.dump(1);
    }
    if (k == kBroken) {
      EXPECT_EQ(c["status"], "skipped") << c.dump(1);
      EXPECT_TRUE(has(c["reason"].get<std::string>(), "does not build")) << c.dump(1);
    }
  }
  EXPECT_EQ(measured + 1, rep["builds"].get<int>());  // the skipped one was built too

  std::string md = read_file(dir / "bisect.md");
  EXPECT_TRUE(has(md, "First bad commit: `" + hashes[kCulprit - 1].substr(0, 12))) << md;
  EXPECT_TRUE(has(md, "work(unsigned long)")) << md;

  // Every measured commit is in the results database, and the history
  // finds the step exactly where the bisect did: between commits 8 and 9.
  auto changes = p.perfci({"history", "changes", "--history", db.string(), "--last", "0", "--json",
                           "-", "--metric", "callgrind/ir"});
  ASSERT_EQ(changes.exit_code, 0) << explain(changes);
  const json cj = json::parse(changes.out);
  write_file_atomic(dir / "changes.json", changes.out);
  expect_valid(dir / "changes.json", HISTORY_SCHEMA);
  ASSERT_EQ(cj["series"].size(), 1u) << cj.dump(1);
  const json& series = cj["series"][0];
  EXPECT_EQ(series["benchmark"], "BM_work");
  EXPECT_TRUE(series["deterministic"].get<bool>());
  EXPECT_EQ(series["entries"].size(), static_cast<std::size_t>(measured)) << series.dump(1);
  ASSERT_EQ(series["changes"].size(), 1u) << series.dump(1);
  EXPECT_EQ(series["changes"][0]["to_commit"], hashes[kCulprit - 1]);
  EXPECT_EQ(series["changes"][0]["from_commit"], hashes[kCulprit - 2]);
  EXPECT_EQ(series["changes"][0]["commits"], 1);
  EXPECT_EQ(series["changes"][0]["method"], "step");
  EXPECT_NEAR(series["changes"][0]["magnitude"].get<double>(), 0.2, 0.1);
  const fs::path page = dir / "history.html";
  auto show = p.perfci({"history", "show", "--history", db.string(), "--last", "0", "--html",
                        page.string(), "--benchmark", "^BM_work$"});
  ASSERT_EQ(show.exit_code, 0) << explain(show);
  EXPECT_TRUE(has(show.out, "change at " + hashes[kCulprit - 1].substr(0, 12))) << show.out;
  EXPECT_TRUE(has(read_file(page), "commit 9: work() does 20% more rounds"));

  // Commits 5..8, all built above: 7, the middle, is skipped and 8 (BAD)
  // measured, not trusted, before "none" is said.
  auto none = bisect({hashes[4], hashes[7], "--benchmark", "BM_work", "--jobs", "1", "--out",
                      (dir / "none.json").string()});
  EXPECT_EQ(none.exit_code, 1) << explain(none);
  expect_valid(dir / "none.json", BISECT_SCHEMA);
  json none_rep = load(dir / "none.json");
  EXPECT_EQ(none_rep["outcome"], "no_regression");
  EXPECT_TRUE(none_rep["first_bad"].is_null());
  EXPECT_EQ(none_rep["fresh_builds"], 1);  // only the broken commit, tried again
  ASSERT_EQ(none_rep["commits"].size(), 4u);
  EXPECT_EQ(none_rep["commits"][2]["status"], "skipped") << none_rep["commits"].dump(1);
  EXPECT_EQ(none_rep["commits"][3]["status"], "good") << none_rep["commits"].dump(1);
}

}  // namespace
}  // namespace perfci
