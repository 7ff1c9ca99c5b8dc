// How every perfci output spells a number: a metric's value, a change, a
// threshold, a q-value. One place, so a reason written by check/ and a table
// cell rendered by report/ say "+0.73%" the same way.
#pragma once

#include <optional>
#include <string>

namespace perfci {

// "812 ns", "1.25 ms" for time metrics; "2.10M" for counts.
std::string format_value(const std::string& metric, double value);
std::string format_change(double change);  // "+10.4%"
// "+0.73%", "+12.5%": two decimals below 10%, where sub-percent thresholds
// (0.2% for Ir) are decided; "-" when not finite.
std::string format_change_precise(double change);
std::string format_threshold(double threshold);  // 0.002 -> "0.2%"
std::string format_ratio(double ratio);          // "1.104"
std::string format_q(std::optional<double> q);

}  // namespace perfci
