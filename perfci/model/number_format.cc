#include "perfci/model/number_format.h"

#include <fmt/format.h>

#include <cmath>

namespace perfci {

namespace {

bool is_time(const std::string& metric) {
  return metric.size() > 3 && metric.compare(metric.size() - 3, 3, "_ns") == 0;
}

}  // namespace

std::string format_value(const std::string& metric, double v) {
  if (!std::isfinite(v)) return "-";
  if (is_time(metric) || metric == "task-clock") {
    double a = std::fabs(v);
    if (a >= 1e9) return fmt::format("{:.3g} s", v / 1e9);
    if (a >= 1e6) return fmt::format("{:.3g} ms", v / 1e6);
    if (a >= 1e3) return fmt::format("{:.3g} µs", v / 1e3);
    return fmt::format("{:.3g} ns", v);
  }
  double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.4g}", v);
}

// +inf: a count that rose from zero (compare_deterministic); NaN: no ratio.
std::string format_change(double change) {
  if (change == INFINITY) return "from 0";
  if (!std::isfinite(change)) return "-";
  return fmt::format("{:+.1f}%", change * 100);
}

std::string format_change_precise(double change) {
  if (change == INFINITY) return "from 0";
  if (!std::isfinite(change)) return "-";
  const double pct = change * 100;
  return std::fabs(pct) < 10 ? fmt::format("{:+.2f}%", pct) : fmt::format("{:+.1f}%", pct);
}

std::string format_threshold(double threshold) { return fmt::format("{:g}%", threshold * 100); }

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio)) return "-";
  return fmt::format("{:.3f}", ratio);
}

std::string format_q(std::optional<double> q) {
  if (!q) return "exact";
  if (*q < 0.001) return "<0.001";
  return fmt::format("{:.3f}", *q);
}

}  // namespace perfci
