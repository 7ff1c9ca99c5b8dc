// How fast a cost grows with its input: the exponent k of cost ~ n^k,
// from the slope of log(cost) against log(n). A scaling contract
// (analysis/scaling_contract.h) judges the steepest slope between two
// neighbouring sizes, where an O(n^2) drain hidden under a linear part shows
// first; the least-squares fit over every size is reported beside it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perfci::stats {

// log(c2 / c1) / log(n2 / n1). Throws std::invalid_argument unless
// 0 < n1 < n2 and both costs are positive and finite.
double loglog_slope(double n1, double c1, double n2, double c2);

// The least-squares slope of log(cost) on log(n) over (n, cost) points with
// at least two distinct n. Throws std::invalid_argument otherwise.
double fitted_exponent(const std::vector<std::pair<double, double>>& points);

// An order's own exponent between n1 and n2: 0 for "1", 1 for "n", 2 for
// "n^2", log(g(n2) / g(n1)) / log(n2 / n1) for g = log n and n log n (which
// fall towards 0 and 1 as n grows). Throws std::invalid_argument for
// another order or n1 <= 1 with a logarithm (log 1 = 0).
double order_exponent(const std::string& order, double n1, double n2);

}  // namespace perfci::stats
