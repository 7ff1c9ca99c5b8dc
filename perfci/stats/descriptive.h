// Descriptive statistics of one side's samples. Every function takes the
// samples unsorted and leaves them untouched; an empty input is a caller bug
// and throws std::invalid_argument rather than inventing a value.
#pragma once

#include <cstddef>
#include <span>

namespace perfci::stats {

// Scales the median absolute deviation to the standard deviation of a normal
// distribution, so robust and classical spreads read on the same scale.
inline constexpr double kMadToSigma = 1.482602218505602;

double mean(std::span<const double> x);
// Sample standard deviation (n - 1 denominator); 0 for a single sample.
double stddev(std::span<const double> x);
// stddev / |mean|; 0 when the mean is 0 (nothing to scale by).
double coefficient_of_variation(std::span<const double> x);

// Hyndman–Fan type 7 (linear interpolation between order statistics; the
// default of R and NumPy), so reports agree with the tools readers check them
// with. p is clamped to [0, 1].
double quantile(std::span<const double> x, double p);
// The same on samples the caller has already sorted ascending.
double quantile_sorted(std::span<const double> sorted, double p);
double median(std::span<const double> x);
double interquartile_range(std::span<const double> x);
// Raw median absolute deviation from the median (not scaled by kMadToSigma).
double median_absolute_deviation(std::span<const double> x);

struct Summary {
  std::size_t n = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double stddev = 0;
  double cv = 0;
  double median = 0;
  double q1 = 0;
  double q3 = 0;
  double iqr = 0;
  double mad = 0;

  friend bool operator==(const Summary&, const Summary&) = default;
};

Summary summarize(std::span<const double> x);

}  // namespace perfci::stats
