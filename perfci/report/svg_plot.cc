#include "perfci/report/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "perfci/report/format.h"
#include "perfci/stats/descriptive.h"

namespace perfci::report {

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_strip_plot(const StripPlot& p) {
  constexpr double kWidth = 640, kLeft = 40, kRight = 20, kRowHeight = 44, kTop = 24;
  constexpr double kHeight = kTop + 2 * kRowHeight + 30;
  std::vector<double> all(p.a);
  all.insert(all.end(), p.b.begin(), p.b.end());
  std::string svg = fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">\n<title>{2}</title>\n",
      kWidth, kHeight, html_escape(p.title));
  if (all.empty()) return svg + "<text x=\"10\" y=\"20\">no samples</text>\n</svg>\n";
  double lo = *std::min_element(all.begin(), all.end());
  double hi = *std::max_element(all.begin(), all.end());
  double pad = (hi - lo) * 0.05;
  if (pad == 0) pad = std::fabs(hi) * 0.01 + 1e-9;
  lo -= pad;
  hi += pad;
  auto x = [&](double v) { return kLeft + (v - lo) / (hi - lo) * (kWidth - kLeft - kRight); };

  const std::vector<double>* sides[2] = {&p.a, &p.b};
  const char* names[2] = {"A", "B"};
  const char* colors[2] = {"#2b6cb0", "#c05621"};
  for (int s = 0; s < 2; ++s) {
    const auto& v = *sides[s];
    double mid = kTop + kRowHeight * (s + 0.5);
    svg += fmt::format("<text x=\"8\" y=\"{:.1f}\" class=\"side\">{}</text>\n", mid + 4, names[s]);
    if (v.empty()) continue;
    auto sum = stats::summarize(v);
    svg += fmt::format(
        "<rect class=\"box\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"{}\" fill-opacity=\"0.15\" stroke=\"{}\"/>\n",
        x(sum.q1), mid - 12, std::max(1.0, x(sum.q3) - x(sum.q1)), 24.0, colors[s], colors[s]);
    svg += fmt::format(
        "<line class=\"median\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"{3}\" stroke-width=\"2\"/>\n",
        x(sum.median), mid - 14, mid + 14, colors[s]);
    for (std::size_t i = 0; i < v.size(); ++i) {
      // A small deterministic jitter keeps equal samples visible.
      double jitter = (static_cast<double>((i * 7919) % 17) / 16.0 - 0.5) * 16;
      svg += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\" fill-opacity=\"0.7\">"
          "<title>{} {} {}: {}</title></circle>\n",
          x(v[i]), mid + jitter, colors[s], names[s], html_escape(p.sample), i + 1,
          html_escape(format_value(p.metric, v[i])));
    }
  }
  double axis_y = kTop + 2 * kRowHeight + 4;
  svg += fmt::format(
      "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\"/>\n", kLeft,
      kWidth - kRight, axis_y, axis_y);
  for (int t = 0; t <= 4; ++t) {
    double v = lo + (hi - lo) * t / 4;
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"tick\">{}</text>\n", x(v),
        axis_y + 16, html_escape(format_value(p.metric, v)));
  }
  return svg + "</svg>\n";
}

}  // namespace perfci::report
