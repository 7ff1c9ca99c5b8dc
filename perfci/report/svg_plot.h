// Inline SVG plots for the HTML report: a strip plot of A's and B's samples
// of one metric on a shared axis, each side with its box (quartiles and
// median), so a reader sees the spread and the shift at once. No script and
// no external resource: the SVG is drawn by the browser from the markup.
#pragma once

#include <string>
#include <vector>

namespace perfci::report {

struct StripPlot {
  std::string title;   // shown above the plot
  std::string metric;  // for the axis labels' units
  std::vector<double> a;
  std::vector<double> b;
  std::string sample = "pair";  // what sample i is called: "pair", or "repetition" (unpaired)
};

// An <svg class="plot"> element; every sample is a <circle>.
std::string render_strip_plot(const StripPlot& plot);

// Escapes &, <, >, " and ' for HTML text and attributes.
std::string html_escape(const std::string& text);

}  // namespace perfci::report
