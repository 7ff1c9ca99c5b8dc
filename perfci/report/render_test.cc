#include <gtest/gtest.h>

#include "perfci/analysis/sample_report.h"
#include "perfci/report/html.h"
#include "perfci/report/markdown.h"
#include "perfci/report/svg_plot.h"

namespace perfci::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(Markdown, FailuresAndRegressionsFirstWithRatioIntervalAndWhy) {
  std::string md = render_markdown(analysis::testing::sample_report());
  EXPECT_NE(md.find("## perfci A/B: **failed**"), std::string::npos) << md;
  auto failed = md.find("| engine/<crash> |");
  auto regressed = md.find("| engine/point_lookup | wall real_time_ns |");
  auto unchanged = md.find("| sqlite/point_lookup | wall real_time_ns |");
  ASSERT_NE(failed, std::string::npos) << md;
  ASSERT_NE(regressed, std::string::npos) << md;
  ASSERT_NE(unchanged, std::string::npos) << md;
  EXPECT_LT(failed, regressed);
  EXPECT_LT(regressed, unchanged);
  EXPECT_NE(md.find("**regressed**"), std::string::npos);
  EXPECT_NE(md.find("ir +10.0% (regressed)"), std::string::npos) << md;
  EXPECT_NE(md.find("### Why engine/point_lookup regressed"), std::string::npos);
  EXPECT_NE(md.find("decode_varint(unsigned char const*) appeared"), std::string::npos);
  EXPECT_NE(md.find("contract 'varint inlined into seek' went from ok to broken"),
            std::string::npos);
  EXPECT_NE(md.find("### engine/<crash> failed"), std::string::npos);
  EXPECT_NE(md.find("### Oracle gap"), std::string::npos);
  EXPECT_NE(md.find("| point_lookup | wall/real_time_ns | 2.00x |"), std::string::npos) << md;
}

// A run a signal stopped says so first, in both renderings, and its exit
// code is 128 + the signal whatever its verdicts (issue 17).
TEST(Markdown, AnInterruptedRunSaysIncompleteUnderTheHeadline) {
  Report r = analysis::testing::sample_report();
  Incomplete inc;
  inc.signo = 2;  // SIGINT
  inc.completed = 3;
  inc.planned = 10;
  inc.unit = "pairs";
  r.incomplete = inc;
  EXPECT_EQ(r.exit_code(), 130);
  const std::string md = render_markdown(r);
  EXPECT_EQ(md.rfind("## perfci A/B: **incomplete**\n\n**incomplete: interrupted by SIGINT after 3 "
                     "of 10 pairs (exit 130); what follows is what was measured until then.**",
                     0),
            0u)
      << md;
  const std::string html = render_html(r);
  EXPECT_NE(html.find("<h1>perfci A/B: <span class=\"failed\">incomplete</span></h1>\n<p "
                      "class=\"failed\"><strong>incomplete: interrupted by SIGINT after 3 of 10 "
                      "pairs (exit 130)"),
            std::string::npos)
      << html;
  // The JSON says the same, and reads back.
  nlohmann::json j = r;
  EXPECT_EQ(j["incomplete"]["reason"], "interrupted by SIGINT after 3 of 10 pairs");
  EXPECT_EQ(j["summary"]["exit_code"], 130);
  Report back = report_from_json(j, "r.json");
  ASSERT_TRUE(back.incomplete);
  EXPECT_EQ(back.incomplete->reason(), inc.reason());
  EXPECT_EQ(back.exit_code(), 130);
}

TEST(Html, SelfContainedWithOnePlotPerMetricAndEscapedText) {
  Report r = analysis::testing::sample_report();
  std::string html = render_html(r);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // 2 + 2 metrics; the failed benchmark has none.
  EXPECT_EQ(count(html, "<svg class=\"plot\""), 4u);
  // Every sample is drawn: 10 + 10 per wall metric, 1 + 1 per Ir metric.
  EXPECT_EQ(count(html, "<circle "), 44u);
  // Nothing is fetched from elsewhere: the only URL is the SVG namespace.
  EXPECT_EQ(count(html, "http"), count(html, "http://www.w3.org/2000/svg"));
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("boom &amp; &lt;oops&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<oops>"), std::string::npos);
  EXPECT_NE(html.find("engine/&lt;crash&gt;"), std::string::npos);
}

TEST(StripPlot, DrawsBothSidesOnOneAxis) {
  std::string svg = render_strip_plot({"t", "real_time_ns", {1, 2, 3}, {4, 4}, "pair"});
  EXPECT_EQ(count(svg, "<circle "), 5u);
  EXPECT_EQ(count(svg, "class=\"box\""), 2u);
  EXPECT_EQ(count(svg, "class=\"median\""), 2u);
  std::string empty = render_strip_plot({"t", "x", {}, {}, "pair"});
  EXPECT_NE(empty.find("no samples"), std::string::npos);
  EXPECT_EQ(html_escape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
}

}  // namespace
}  // namespace perfci::report
