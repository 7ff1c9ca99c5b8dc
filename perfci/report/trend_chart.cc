#include "perfci/report/trend_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "perfci/model/number_format.h"
#include "perfci/report/svg_plot.h"  // html_escape

namespace perfci::report {

std::string render_trend_chart(const TrendChart& c) {
  constexpr double kLeft = 90, kRight = 20, kTop = 28, kPlotHeight = 180, kBottom = 72;
  const double step = c.points.size() > 40 ? 14 : 24;
  const double width =
      std::max(480.0, kLeft + kRight + step * static_cast<double>(c.points.size()));
  const double height = kTop + kPlotHeight + kBottom;
  std::string svg = fmt::format(
      "<svg class=\"plot trend\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" "
      "height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" aria-label=\"{2}\">\n"
      "<title>{2}</title>\n",
      width, height, html_escape(c.title));
  if (c.points.empty()) return svg + "<text x=\"10\" y=\"20\">no points</text>\n</svg>\n";

  double lo = c.points.front().value, hi = lo;
  for (const auto& p : c.points) {
    lo = std::min({lo, p.value, p.lo.value_or(p.value)});
    hi = std::max({hi, p.value, p.hi.value_or(p.value)});
  }
  double pad = (hi - lo) * 0.08;
  if (pad == 0) pad = std::fabs(hi) * 0.01 + 1e-9;
  lo -= pad;
  hi += pad;
  auto x = [&](std::size_t i) { return kLeft + step * (static_cast<double>(i) + 0.5); };
  auto y = [&](double v) { return kTop + (hi - v) / (hi - lo) * kPlotHeight; };

  // The interval band, one polygon per run of points that have an interval.
  for (std::size_t i = 0; i < c.points.size();) {
    if (!c.points[i].lo || !c.points[i].hi) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < c.points.size() && c.points[j].lo && c.points[j].hi) ++j;
    std::string pts;
    for (std::size_t k = i; k < j; ++k)
      pts += fmt::format("{:.1f},{:.1f} ", x(k), y(*c.points[k].hi));
    for (std::size_t k = j; k-- > i;)
      pts += fmt::format("{:.1f},{:.1f} ", x(k), y(*c.points[k].lo));
    svg += fmt::format(
        "<polygon class=\"band\" points=\"{}\" fill=\"#2b6cb0\" fill-opacity=\"0.15\" "
        "stroke=\"none\"/>\n",
        pts);
    i = j;
  }
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    if (!c.points[i].baseline) continue;
    svg += fmt::format(
        "<line class=\"baseline\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"#718096\" stroke-dasharray=\"4 3\"><title>baseline taken at {3}</title></line>\n",
        x(i), kTop, kTop + kPlotHeight, html_escape(c.points[i].label));
  }
  for (const auto& ch : c.changes) {
    if (ch.index == 0 || ch.index >= c.points.size()) continue;
    const double cx = (x(ch.index - 1) + x(ch.index)) / 2;
    const char* color = ch.regression ? "#c53030" : "#2f855a";
    svg += fmt::format(
        "<line class=\"change\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"{3}\" stroke-width=\"2\"><title>change point: {4} at {5}</title></line>\n"
        "<text x=\"{0:.1f}\" y=\"{6:.1f}\" text-anchor=\"middle\" class=\"tick\" fill=\"{3}\">{4}"
        "</text>\n",
        cx, kTop, kTop + kPlotHeight, color, html_escape(ch.label),
        html_escape(c.points[ch.index].label), kTop - 8);
  }
  std::string line;
  for (std::size_t i = 0; i < c.points.size(); ++i)
    line += fmt::format("{:.1f},{:.1f} ", x(i), y(c.points[i].value));
  svg += fmt::format(
      "<polyline class=\"value\" points=\"{}\" fill=\"none\" stroke=\"#2b6cb0\" "
      "stroke-width=\"1.5\"/>\n",
      line);
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const auto& p = c.points[i];
    if (p.accepted)
      svg += fmt::format(
          "<rect class=\"accepted\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"10\" height=\"10\" "
          "fill=\"none\" stroke=\"#b7791f\" stroke-width=\"2\" transform=\"rotate(45 {:.1f} "
          "{:.1f})\"><title>accepted regression at {}</title></rect>\n",
          x(i) - 5, y(p.value) - 5, x(i), y(p.value), html_escape(p.label));
    svg += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#2b6cb0\"><title>{}</title>"
        "</circle>\n",
        x(i), y(p.value), html_escape(p.tooltip));
    // Every label when they fit, else every fifth and the last.
    if (step >= 24 || i % 5 == 0 || i + 1 == c.points.size())
      svg += fmt::format(
          "<text x=\"{0:.1f}\" y=\"{1:.1f}\" class=\"tick\" text-anchor=\"end\" "
          "transform=\"rotate(-45 {0:.1f} {1:.1f})\">{2}</text>\n",
          x(i), kTop + kPlotHeight + 14, html_escape(p.label));
  }
  // Tick labels as every output spells the metric, unless the range is so
  // narrow (a 0.1% step in 46M instructions) that they would all read the
  // same: then in full, with as many decimals as tell them apart.
  std::vector<std::string> ticks;
  for (int t = 0; t <= 4; ++t) ticks.push_back(format_value(c.metric, lo + (hi - lo) * t / 4));
  for (int decimals = 0;
       decimals <= 6 && std::adjacent_find(ticks.begin(), ticks.end()) != ticks.end(); ++decimals)
    for (std::size_t t = 0; t <= 4; ++t)
      ticks[t] = fmt::format("{:.{}f}", lo + (hi - lo) * static_cast<double>(t) / 4, decimals);
  for (int t = 0; t <= 4; ++t) {
    const double v = lo + (hi - lo) * t / 4;
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" class=\"tick\">{}</text>\n"
        "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e2e8f0\"/>\n",
        kLeft - 6, y(v) + 4, html_escape(ticks[static_cast<std::size_t>(t)]), kLeft, width - kRight,
        y(v), y(v));
  }
  return svg + "</svg>\n";
}

std::string sparkline(const std::vector<double>& values) {
  static const char* const kBlocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty()) return "";
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  std::string out;
  for (double v : values) {
    int level = 3;
    if (*mx > *mn) level = static_cast<int>(std::lround((v - *mn) / (*mx - *mn) * 7));
    out += kBlocks[std::clamp(level, 0, 7)];
  }
  return out;
}

}  // namespace perfci::report
