// The regression gallery (issue 18), end to end: for each of the five kinds
// of regression perfci exists for, `perfci ab` on the good and the regressed
// build of a miniature program (tests/gallery), deterministic meters only,
// must say "regressed" and name the cause: the broken contract, the grown or
// appeared function, the broken scaling, the cache misses, the allocations
// and their bytes.
// Each case also runs good against good, which must pass with none of that:
// the assertions cannot hold by accident of the fixture.
#include <gtest/gtest.h>

#include <string>

#include "perfci_cli_testing.h"

namespace perfci::testing {
namespace {

using nlohmann::json;

struct GalleryRun {
  SubprocessResult result;
  json report;
};

std::string gallery(const std::string& name) { return std::string(GALLERY_DIR) + "/" + name; }

GalleryRun ab(const std::string& c, const std::string& a, const std::string& b,
              const TempDir& dir) {
  const std::string out = (dir.path() / (c + "-" + a + "-" + b + ".json")).string();
  GalleryRun r;
  auto binary = [&](const std::string& variant) {
    return std::string(GALLERY_BIN) + "/gallery_" + c + "_" + variant;
  };
  r.result =
      perfci_cli({"ab", "--a", binary(a), "--b", binary(b), "--config", gallery(c + ".json"),
                  "--meter", "callgrind", "--pairs", "1", "--no-history", "--quiet", "--out", out});
  if (std::filesystem::exists(out)) r.report = load(out);
  return r;
}

const json& metric(const json& bench, const std::string& name) {
  for (const auto& m : bench["metrics"])
    if (m["kind"] == "callgrind" && m["metric"] == name) return m;
  static const json none;
  ADD_FAILURE() << "no callgrind metric " << name << " in " << bench.dump().substr(0, 2000);
  return none;
}

std::string verdict(const json& m) { return m.is_null() ? "" : m["decision"].get<std::string>(); }

std::string notes(const json& bench) {
  std::string all;
  if (bench.contains("explanation"))
    for (const auto& n : bench["explanation"]["notes"]) all += n.get<std::string>() + "\n";
  return all;
}

// The control: the good build against itself passes and explains nothing.
void expect_clean(const std::string& c, const TempDir& dir) {
  GalleryRun same = ab(c, "good", "good", dir);
  EXPECT_EQ(same.result.exit_code, 0) << explain(same.result);
  ASSERT_TRUE(same.report.is_object()) << explain(same.result);
  for (const auto& b : same.report["benchmarks"]) {
    for (const auto& m : b["metrics"])
      EXPECT_EQ(verdict(m), "unchanged") << b["name"] << m["metric"];
    EXPECT_FALSE(b.contains("explanation")) << b.dump().substr(0, 2000);
  }
  EXPECT_TRUE(same.report["contract_changes"].empty()) << same.report["contract_changes"];
}

// Each test: perfci ab on one case's good and regressed builds, which must
// exit 1 with a report; then, in TearDown, the good build against itself.
class GalleryTest : public ::testing::Test {
 protected:
  json regressed(const std::string& c) {
    case_ = c;
    GalleryRun r = ab(c, "good", "regressed", dir_);
    EXPECT_EQ(r.result.exit_code, 1) << explain(r.result);
    EXPECT_TRUE(r.report.is_object()) << explain(r.result);
    return r.report;
  }
  void TearDown() override {
    if (!case_.empty()) expect_clean(case_, dir_);
  }

 private:
  TempDir dir_{"gallery"};
  std::string case_;
};

const json& contract_of(const json& side, const std::string& name) {
  for (const auto& c : side["contracts"]["contracts"])
    if (c.value("name", "") == name) return c;
  static const json none;
  ADD_FAILURE() << "no contract " << name << " in " << side["contracts"].dump().substr(0, 2000);
  return none;
}

TEST_F(GalleryTest, DecodeNoLongerInlinedIntoTheSeek) {
  const json r = regressed("inline_decode");
  ASSERT_TRUE(r.is_object());
  const json& b = bench(r, "BM_point_lookup");
  EXPECT_EQ(verdict(metric(b, "ir")), "regressed");
  const std::string n = notes(b);
  EXPECT_TRUE(has(n, "contract 'varint decode inlined into the seek' went from ok to broken")) << n;
  EXPECT_TRUE(has(n, "gallery::decode_varint")) << n;
  bool appeared = false;
  for (const auto& s : b["explanation"]["symbols"])
    appeared |=
        has(s["symbol"].get<std::string>(), "gallery::decode_varint") && s["change"] == "appeared";
  EXPECT_TRUE(appeared) << b["explanation"].dump(1);
}

TEST_F(GalleryTest, ReturnForcedThroughMemory) {
  const json r = regressed("sret_return");
  ASSERT_TRUE(r.is_object());
  const json& b = bench(r, "BM_scan_cells");
  EXPECT_EQ(verdict(metric(b, "ir")), "regressed");
  const std::string n = notes(b);
  EXPECT_TRUE(has(n, "contract 'a cell's span comes back in registers' went from ok to broken"))
      << n;
  EXPECT_TRUE(has(n, "gallery::cell_span")) << n;
  EXPECT_EQ(contract_of(r["b"], "Span stays 16 bytes")["status"], "broken");
}

TEST_F(GalleryTest, QuadraticDrainBreaksTheScalingContract) {
  const json r = regressed("quadratic_drain");
  ASSERT_TRUE(r.is_object());
  const json& good = contract_of(r["a"], "draining a range is linear in its rows");
  const json& bad = contract_of(r["b"], "draining a range is linear in its rows");
  EXPECT_EQ(good["status"], "ok") << good;
  EXPECT_EQ(bad["status"], "broken") << bad;
  // The exponent, where it was measured, and the bound.
  const std::string msg = bad["message"];
  EXPECT_TRUE(has(msg, "BM_drain/n grows as n^")) << msg;
  EXPECT_TRUE(has(msg, "between 1k and 4k (bound 1.15")) << msg;
  EXPECT_GT(bad["scaling"]["steepest"].get<double>(), 1.5) << bad;
  EXPECT_LT(good["scaling"]["steepest"].get<double>(), 1.15) << good;
  EXPECT_EQ(bad["scaling"]["points"].size(), 3u);
  const std::string n = notes(bench(r, "BM_drain/4000"));
  EXPECT_TRUE(has(n, "went from ok to broken")) << n;
}

TEST_F(GalleryTest, DependentLoadShowsAsCacheMisses) {
  const json r = regressed("dependent_load");
  ASSERT_TRUE(r.is_object());
  const json& b = bench(r, "BM_range_scan");
  EXPECT_EQ(verdict(metric(b, "l1_misses")), "regressed");
  EXPECT_EQ(verdict(metric(b, "estimated_cycles")), "regressed");
  // The misses more than double; the instructions grow far less.
  const double misses = metric(b, "l1_misses")["comparison"]["ratio"];
  const double ir = metric(b, "ir")["comparison"]["ratio"];
  EXPECT_GT(misses, 2.0);
  EXPECT_LT(ir, misses / 2);
  ASSERT_TRUE(b["explanation"].contains("cache_misses")) << b["explanation"].dump(1);
  EXPECT_TRUE(
      has(b["explanation"]["cache_misses"][0]["symbol"].get<std::string>(), "gallery::sum_range"))
      << b["explanation"]["cache_misses"];
  const std::string n = notes(b);
  EXPECT_TRUE(has(n, "L1 misses grew in gallery::sum_range")) << n;
}

TEST_F(GalleryTest, ExecutorRebuiltOnEveryExecutionAllocates) {
  const json r = regressed("executor_rebuild");
  ASSERT_TRUE(r.is_object());
  const json& b = bench(r, "BM_prepared_execute");
  const json& allocations = metric(b, "allocations");
  EXPECT_EQ(verdict(allocations), "regressed");
  // None per execution when the plan is kept; eight operators (and the
  // vector that holds them, once per repetition) when rebuilt.
  EXPECT_EQ(allocations["samples"]["a"][0], 0.0);
  EXPECT_GE(allocations["samples"]["b"][0].get<double>(), 8.0);
  ASSERT_TRUE(b["explanation"].contains("allocation_sites")) << b["explanation"].dump(1);
  const json& site = b["explanation"]["allocation_sites"][0];
  EXPECT_TRUE(has(site["symbol"].get<std::string>(), "gallery::Statement::build_plan")) << site;
  EXPECT_EQ(site["change"], "appeared");
  // Bytes too, from the counter's native run: eight 16-byte operators at
  // least, none when the plan is kept.
  const json& bytes = metric(b, "allocated_bytes");
  EXPECT_EQ(verdict(bytes), "regressed");
  EXPECT_EQ(bytes["samples"]["a"][0], 0.0);
  EXPECT_GE(bytes["samples"]["b"][0].get<double>(), 8 * 16.0);
  const std::string n = notes(b);
  EXPECT_TRUE(has(n, "new allocations per iteration in gallery::Statement::build_plan")) << n;
  EXPECT_TRUE(has(n, "callgrind allocated_bytes regressed")) << n;
}

}  // namespace
}  // namespace perfci::testing
