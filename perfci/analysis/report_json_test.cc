#include <gtest/gtest.h>

#include "perfci/analysis/report_builder.h"
#include "perfci/analysis/sample_report.h"
#include "perfci/model/report.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::analysis {
namespace {

TEST(Report, SummaryVerdictIsTheWorstAndExitCodeFollows) {
  Report r = analysis::testing::sample_report();
  EXPECT_EQ(r.schema, "perfci.report/1");
  EXPECT_EQ(r.mode, "ab");
  EXPECT_EQ(r.verdict, stats::Outcome::kFailed);
  EXPECT_EQ(r.counts.failed, 1);
  EXPECT_EQ(r.counts.regressed, 1);
  EXPECT_EQ(r.counts.unchanged, 1);
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_EQ(benchmark_outcome(r.benchmarks[0].run), stats::Outcome::kRegressed);
  EXPECT_EQ(benchmark_outcome(r.benchmarks[1].run), stats::Outcome::kUnchanged);
  ASSERT_TRUE(r.benchmarks[0].explanation.has_value());
  EXPECT_FALSE(r.benchmarks[1].explanation.has_value());

  ASSERT_EQ(benchmark_outcome(r.benchmarks.back().run), stats::Outcome::kFailed);
  r.benchmarks.pop_back();  // without the failure, the regression decides
  summarize(r);
  EXPECT_EQ(r.counts.failed, 0);
  EXPECT_EQ(r.counts.regressed, 1);
  EXPECT_EQ(r.verdict, stats::Outcome::kRegressed);
  EXPECT_EQ(r.exit_code(), 1);
}

TEST(Report, JsonRoundTripKeepsEverything) {
  Report r = analysis::testing::sample_report();
  nlohmann::json j = r;
  EXPECT_EQ(j["schema"], "perfci.report/1");
  EXPECT_EQ(j["summary"]["verdict"], "failed");
  EXPECT_EQ(j["summary"]["exit_code"], 2);
  EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["samples"]["a"].size(), 10u);
  EXPECT_EQ(j["benchmarks"][0]["outcome"], "regressed");
  EXPECT_TRUE(j["benchmarks"][0].contains("explanation"));
  EXPECT_TRUE(j["benchmarks"][2].contains("error"));
  EXPECT_EQ(j["a"]["revision"], "HEAD~1");
  EXPECT_TRUE(j["b"]["dirty"].get<bool>());

  Report back = report_from_json(j, "mem");
  EXPECT_EQ(nlohmann::json(back), j);
}

TEST(Report, SaveAndLoad) {
  TempDir dir("perfci-report");
  auto path = (dir.path() / "r.json").string();
  Report r = analysis::testing::sample_report();
  save_report(r, path);
  EXPECT_EQ(nlohmann::json(load_report(path)), nlohmann::json(r));
}

TEST(Report, MalformedReportsAreClearErrors) {
  auto message = [](const nlohmann::json& j) -> std::string {
    try {
      report_from_json(j, "r.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "accepted";
  };
  nlohmann::json good = analysis::testing::sample_report();
  EXPECT_NE(message(nlohmann::json::array()).find("not a perfci report"), std::string::npos);
  auto other = good;
  other["schema"] = "perfci.results/1";
  EXPECT_NE(message(other).find("this perfci reads \"perfci.report/1\""), std::string::npos);
  auto no_run = good;
  no_run.erase("run");
  EXPECT_NE(message(no_run).find("r.json: run:"), std::string::npos);
  auto bad_metric = good;
  bad_metric["benchmarks"][0]["metrics"][0]["decision"] = "worse";
  EXPECT_NE(message(bad_metric).find("benchmarks[0].metrics[0]"), std::string::npos);
  auto unpaired = good;
  unpaired["benchmarks"][0]["metrics"][0]["samples"]["b"].erase(0);
  EXPECT_NE(message(unpaired).find("differ in length"), std::string::npos);

  TempDir dir("perfci-report");
  write_file_atomic(dir.path() / "bad.json", "{not json");
  EXPECT_THROW(load_report((dir.path() / "bad.json").string()), Error);
  EXPECT_THROW(load_report((dir.path() / "missing.json").string()), Error);
}

}  // namespace
}  // namespace perfci::analysis
