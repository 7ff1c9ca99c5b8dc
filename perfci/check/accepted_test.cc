#include "perfci/check/accepted.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci::check {
namespace {

using nlohmann::json;

std::string error_of(const json& config) {
  try {
    parse_accepted(config, "perfci.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

json entry(const std::string& commit = "abc1234") {
  return {{"benchmark", "engine/insert_batch"},
          {"metric", "callgrind/ir"},
          {"commit", commit},
          {"reason", "journal fsync per commit"}};
}

TEST(Accepted, ParsesEntries) {
  EXPECT_TRUE(parse_accepted(json::object(), "perfci.json").empty());
  auto list = parse_accepted({{"accepted", {entry()}}}, "perfci.json");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].benchmark, "engine/insert_batch");
  EXPECT_EQ(list[0].metric, "callgrind/ir");
  EXPECT_EQ(list[0].commit, "abc1234");
}

TEST(Accepted, ValidatesEveryField) {
  EXPECT_NE(error_of({{"accepted", entry()}}).find("accepted: expected an array"),
            std::string::npos);
  json e = entry();
  e.erase("reason");
  EXPECT_NE(error_of({{"accepted", {e}}}).find("perfci.json: accepted[0].reason: missing"),
            std::string::npos);
  e = entry();
  e["reason"] = "  ";
  EXPECT_NE(error_of({{"accepted", {e}}}).find("accepted[0].reason: expected a non-empty string"),
            std::string::npos);
  e = entry();
  e["metric"] = "ir";
  EXPECT_NE(error_of({{"accepted", {e}}}).find("accepted[0].metric: 'ir' is not a metric"),
            std::string::npos);
  e = entry();
  e["metric"] = "callgrind/instructions";
  EXPECT_NE(error_of({{"accepted", {e}}}).find("is not a metric"), std::string::npos);
  EXPECT_NE(error_of({{"accepted", {entry("HEAD")}}})
                .find("accepted[0].commit: 'HEAD' is not a commit hash"),
            std::string::npos);
  EXPECT_NE(error_of({{"accepted", {entry("abc")}}}).find("is not a commit hash"),
            std::string::npos);
  e = entry();
  e["until"] = "never";
  EXPECT_NE(error_of({{"accepted", {e}}}).find("accepted[0].until: unknown field"),
            std::string::npos);
  EXPECT_NE(
      error_of({{"accepted", {entry(), entry("def5678")}}}).find("accepted[1]: a second entry"),
      std::string::npos);
}

// A history a - b - c (HEAD), the baseline made at b.
GitHistory history() {
  GitHistory g;
  g.resolve = [](const std::string& c) -> std::string {
    if (c == "aaaaaaa" || c == "bbbbbbb" || c == "ccccccc" || c == "ddddddd")
      return std::string(40, c[0]);
    throw Error("unknown revision");
  };
  g.is_ancestor = [](const std::string& x, const std::string& y) {
    if (x[0] == 'd' || y[0] == 'd') return x == y;  // d: on another branch
    return x[0] <= y[0];
  };
  return g;
}

AcceptedEntry make(const std::string& commit) {
  return {"engine/x", "callgrind/ir", commit, "why"};
}

TEST(Accepted, AnEntryAfterTheBaselineApplies) {
  auto list = resolve_accepted({make("ccccccc")}, std::string(40, 'c'), std::string(40, 'b'),
                               history(), "p.json");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].commit, std::string(40, 'c'));
  EXPECT_FALSE(list[0].stale);
}

TEST(Accepted, AnEntryTheBaselineAlreadyHoldsIsStale) {
  auto list = resolve_accepted({make("aaaaaaa"), make("bbbbbbb")}, std::string(40, 'c'),
                               std::string(40, 'b'), history(), "p.json");
  EXPECT_TRUE(list[0].stale);
  EXPECT_TRUE(list[1].stale);
  // Without a baseline commit nothing can be stale.
  EXPECT_FALSE(
      resolve_accepted({make("aaaaaaa")}, std::string(40, 'c'), "", history(), "p.json")[0].stale);
}

TEST(Accepted, CommitsOutsideHeadsHistoryAreRefused) {
  try {
    resolve_accepted({make("ddddddd")}, std::string(40, 'c'), "", history(), "p.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "p.json: accepted[0].commit: ddddddd is not HEAD or an ancestor of HEAD"),
              std::string::npos)
        << e.what();
  }
  try {
    resolve_accepted({make("eeeeeee")}, std::string(40, 'c'), "", history(), "p.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("eeeeeee is not a commit of this repository"),
              std::string::npos);
  }
  EXPECT_THROW(resolve_accepted({make("ccccccc")}, "", "", history(), "p.json"), Error);
  EXPECT_TRUE(resolve_accepted({}, "", "", history(), "p.json").empty());
}

}  // namespace
}  // namespace perfci::check
