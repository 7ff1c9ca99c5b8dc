#include "perfci/report/history_render.h"

#include <gtest/gtest.h>

#include <regex>

#include "perfci/history/sample_series.h"
#include "perfci/report/trend_chart.h"

namespace perfci::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HistoryRenderTest, TheTextNamesEveryCommitAndEachChangePoint) {
  const auto series = history::testing::sample_series();
  ASSERT_EQ(series.size(), 2u);
  const std::string text = render_history_text(series);
  EXPECT_NE(
      text.find("engine/read_join callgrind ir (x86_64-debian12-gcc12-release): 30 commit(s), "
                "threshold 0.2%, deterministic"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("change at 110000000000: +0.30% (exact step (deterministic metric))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("baseline"), std::string::npos);
  EXPECT_NE(text.find("accepted"), std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex("change at 110000000000: \\+[45]\\.[0-9]+% \\[")))
      << text;
}

TEST(HistoryRenderTest, ALongSubjectIsClippedBetweenCharacters) {
  auto series = history::testing::sample_series();
  // 59 ASCII bytes, then a two-byte 'é' across the 60-byte cut.
  series[0].entries[0].subject = std::string(59, 'x') + "\xC3\xA9 and more";
  const std::string text = render_history_text(series);
  EXPECT_NE(text.find(std::string(59, 'x') + "\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("\xC3\n"), std::string::npos);
}

TEST(HistoryRenderTest, ChangesComeNewestFirstWithTheirEvidence) {
  const std::string text = render_changes_text(history::testing::sample_series());
  EXPECT_NE(text.find("2 change point(s) in 2 series, newest first:"), std::string::npos) << text;
  EXPECT_NE(text.find("exact step"), std::string::npos);
  EXPECT_NE(text.find("e-divisive, p = "), std::string::npos);
  EXPECT_EQ(render_changes_text({}), "history: no change point in 0 series\n");
}

TEST(HistoryRenderTest, MarkdownHasASparklinePerSeries) {
  const std::string md = render_history_markdown(history::testing::sample_series());
  EXPECT_EQ(count(md, "| engine/read_join"), 2u) << md;
  EXPECT_NE(md.find("▁▁▁"), std::string::npos) << md;
  EXPECT_NE(md.find("█"), std::string::npos) << md;
  EXPECT_EQ(sparkline({1, 1, 1}), "▄▄▄");
  EXPECT_EQ(sparkline({0, 7}), "▁█");
}

TEST(HistoryRenderTest, TheHtmlPageHasAChartPerSeriesAndAPointPerCommit) {
  const std::string html = render_history_html(history::testing::sample_series(), "h.sqlite");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<svg class=\"plot trend\""), 2u);
  EXPECT_EQ(count(html, "<circle "), 60u);
  EXPECT_EQ(count(html, "class=\"change\""), 2u);
  EXPECT_EQ(count(html, "class=\"baseline\""), 1u);
  EXPECT_EQ(count(html, "class=\"accepted\""), 1u);
  EXPECT_EQ(count(html, "<polygon class=\"band\""), 1u);  // only the wall series has intervals
  // Subjects are escaped, never markup.
  EXPECT_EQ(html.find("<b>&amp; friends</b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;&amp;amp; friends&lt;/b&gt;"), std::string::npos);
}

}  // namespace
}  // namespace perfci::report
