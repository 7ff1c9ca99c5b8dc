#include "perfci/stats/detectable_effect.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "perfci/stats/normal_distribution.h"
#include "perfci/stats/rank_sum.h"
#include "perfci/stats/wilcoxon.h"

namespace perfci::stats {

double minimum_detectable_effect(double sigma, std::size_t pairs,
                                 const DetectableEffectOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1) || !(options.power > 0 && options.power < 1)) {
    throw std::invalid_argument("detectable effect needs alpha and power in (0, 1)");
  }
  if (!(sigma >= 0) || !std::isfinite(sigma)) {
    throw std::invalid_argument("detectable effect needs a finite, non-negative spread");
  }
  if (wilcoxon_min_p_value(pairs) > options.alpha) return std::numeric_limits<double>::infinity();
  const double n_eff = static_cast<double>(pairs) * 3 / std::numbers::pi;
  const double z = normal_quantile(1 - options.alpha / 2) + normal_quantile(options.power);
  return std::expm1(z * sigma / std::sqrt(n_eff));
}

double unpaired_detectable_effect(double sigma_a, std::size_t n_a, double sigma_b, std::size_t n_b,
                                  const DetectableEffectOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1) || !(options.power > 0 && options.power < 1)) {
    throw std::invalid_argument("detectable effect needs alpha and power in (0, 1)");
  }
  if (!(sigma_a >= 0) || !std::isfinite(sigma_a) || !(sigma_b >= 0) || !std::isfinite(sigma_b)) {
    throw std::invalid_argument("detectable effect needs a finite, non-negative spread");
  }
  if (n_a == 0 || n_b == 0 || rank_sum_min_p_value(n_a, n_b) > options.alpha)
    return std::numeric_limits<double>::infinity();
  const double se = std::sqrt(sigma_a * sigma_a / static_cast<double>(n_a) +
                              sigma_b * sigma_b / static_cast<double>(n_b));
  const double z = normal_quantile(1 - options.alpha / 2) + normal_quantile(options.power);
  return std::expm1(z * se / std::sqrt(3 / std::numbers::pi));
}

double interval_detectable_effect(double log_lo, double log_hi,
                                  const DetectableEffectOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1) || !(options.power > 0 && options.power < 1)) {
    throw std::invalid_argument("detectable effect needs alpha and power in (0, 1)");
  }
  if (!std::isfinite(log_lo) || !std::isfinite(log_hi) || log_hi < log_lo) {
    throw std::invalid_argument("detectable effect needs a finite interval");
  }
  const double z_alpha = normal_quantile(1 - options.alpha / 2);
  const double z = z_alpha + normal_quantile(options.power);
  return std::expm1(z / z_alpha * (log_hi - log_lo) / 2);
}

}  // namespace perfci::stats
