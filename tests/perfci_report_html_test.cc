// The HTML report in a real browser: headless Chromium loads the page
// offline, the page's own check counts the plots that have a drawn size and
// samples in them, and the DOM dump shows the counts. No skip: a machine
// without Chromium fails here with instructions (scripts/install-deps.sh
// installs the Debian package `chromium`).
#include <gtest/gtest.h>

#include <regex>

#include "perfci/analysis/sample_report.h"
#include "perfci/history/sample_series.h"
#include "perfci/report/history_render.h"
#include "perfci/report/html.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    SubprocessOptions o;
    o.argv = {"sh", "-c", std::string("command -v ") + name};
    auto r = run_subprocess(o);
    if (r.ok() && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
  }
  return {};
}

std::string attribute(const std::string& dom, const std::string& name) {
  std::smatch m;
  if (std::regex_search(dom, m, std::regex(name + "=\"([^\"]*)\""))) return m[1];
  return {};
}

// Loads `html` in headless Chromium and returns its DOM after the page's
// own check ran.
std::string load_in_chromium(const std::string& html) {
  std::string chromium = find_chromium();
  EXPECT_FALSE(chromium.empty())
      << "Chromium is needed to check the HTML report: apt-get install chromium "
         "(scripts/install-deps.sh installs it)";
  if (chromium.empty()) return {};
  TempDir dir("perfci-html");
  auto page = dir.path() / "report.html";
  write_file_atomic(page, html);

  SubprocessOptions o;
  o.argv = {chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--user-data-dir=" + (dir.path() / "profile").string(),
            "--virtual-time-budget=5000",
            "--dump-dom",
            "file://" + page.string()};
  o.set_env = {{"HOME", dir.path().string()}};
  o.timeout = std::chrono::minutes(2);
  auto r = run_subprocess(o);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err_tail;
  EXPECT_EQ(r.err_tail.find("Uncaught"), std::string::npos) << r.err_tail;
  return r.out;
}

TEST(ReportHtml, LoadsInHeadlessChromiumAndDrawsEveryPlot) {
  const std::string dom = load_in_chromium(report::render_html(analysis::testing::sample_report()));
  // The page's check ran (the attributes exist), found 4 plots, drew all of
  // them, and saw no script error.
  EXPECT_EQ(attribute(dom, "data-plots"), "4") << dom.substr(0, 2000);
  EXPECT_EQ(attribute(dom, "data-plots-drawn"), "4");
  EXPECT_EQ(attribute(dom, "data-errors"), "0");
}

TEST(ReportHtml, TheHistoryPageDrawsATrendChartPerSeries) {
  const std::string dom =
      load_in_chromium(report::render_history_html(history::testing::sample_series(), "h.sqlite"));
  EXPECT_EQ(attribute(dom, "data-plots"), "2") << dom.substr(0, 2000);
  EXPECT_EQ(attribute(dom, "data-plots-drawn"), "2");
  EXPECT_EQ(attribute(dom, "data-errors"), "0");
}

}  // namespace
}  // namespace perfci
