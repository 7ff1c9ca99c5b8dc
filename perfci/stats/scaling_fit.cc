#include "perfci/stats/scaling_fit.h"

#include <cmath>
#include <stdexcept>

namespace perfci::stats {
namespace {

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

double loglog_slope(double n1, double c1, double n2, double c2) {
  if (!positive(n1) || !(n2 > n1) || !std::isfinite(n2))
    throw std::invalid_argument("a slope needs sizes 0 < n1 < n2");
  if (!positive(c1) || !positive(c2))
    throw std::invalid_argument("a log-log slope needs positive costs");
  return std::log(c2 / c1) / std::log(n2 / n1);
}

double fitted_exponent(const std::vector<std::pair<double, double>>& points) {
  double sx = 0, sy = 0;
  for (const auto& [n, c] : points) {
    if (!positive(n) || !positive(c))
      throw std::invalid_argument("a log-log fit needs positive sizes and costs");
    sx += std::log(n);
    sy += std::log(c);
  }
  const double k = static_cast<double>(points.size());
  double sxx = 0, sxy = 0;
  for (const auto& [n, c] : points) {
    const double dx = std::log(n) - sx / k;
    sxx += dx * dx;
    sxy += dx * (std::log(c) - sy / k);
  }
  if (points.size() < 2 || !(sxx > 0))
    throw std::invalid_argument("a log-log fit needs at least two distinct sizes");
  return sxy / sxx;
}

double order_exponent(const std::string& order, double n1, double n2) {
  if (order == "1") return 0;
  if (order == "n") return 1;
  if (order == "n^2") return 2;
  if (order != "log n" && order != "n log n")
    throw std::invalid_argument("unknown order '" + order + "'");
  if (!(n1 > 1) || !(n2 > n1)) throw std::invalid_argument("log n needs sizes 1 < n1 < n2");
  const double log_part = std::log(std::log(n2) / std::log(n1)) / std::log(n2 / n1);
  return order == "log n" ? log_part : 1 + log_part;
}

}  // namespace perfci::stats
