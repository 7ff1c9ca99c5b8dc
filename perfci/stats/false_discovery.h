// Benjamini–Hochberg control of the false discovery rate. A run tests every
// benchmark x metric at once; at alpha = 0.05 each, dozens of tests of
// unchanged code would flag a "regression" in most runs. BH-adjusted
// p-values (q-values) keep the expected share of false flags among all flags
// at alpha.
#pragma once

#include <span>
#include <vector>

namespace perfci::stats {

// q_i = min over j with p_(j) >= p_i of p_(j) * m / rank(j), capped at 1, in
// the input's order (R's p.adjust(p, "BH")). Throws std::invalid_argument on
// a p-value outside [0, 1] or NaN.
std::vector<double> benjamini_hochberg(std::span<const double> p_values);

}  // namespace perfci::stats
