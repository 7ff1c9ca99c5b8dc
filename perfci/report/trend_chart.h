// An inline SVG trend chart for the history page: a metric's value per
// commit along first-parent history, its interval as a band, the commits
// where a baseline was taken or a regression accepted, and the change
// points found in it. Like svg_plot.h: no script, no external resource.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfci::report {

struct TrendPoint {
  std::string label;    // shown under the axis: a short commit hash
  std::string tooltip;  // the <title> of its marker: commit, subject, value
  double value = 0;
  std::optional<double> lo;
  std::optional<double> hi;
  bool baseline = false;
  bool accepted = false;
};

struct TrendChange {
  std::size_t index = 0;  // the first point of the new level
  std::string label;      // "+3.1%"
  bool regression = false;
};

struct TrendChart {
  std::string title;
  std::string metric;  // for format_value: "real_time_ns", "ir"
  std::vector<TrendPoint> points;
  std::vector<TrendChange> changes;
};

// An <svg class="plot trend"> element; every point is a <circle> with a
// <title> naming its commit.
std::string render_trend_chart(const TrendChart& chart);

// "▁▂▅▇": one block per value, scaled between the smallest and the largest
// (all "▄" when they are equal), for Markdown step summaries.
std::string sparkline(const std::vector<double>& values);

}  // namespace perfci::report
