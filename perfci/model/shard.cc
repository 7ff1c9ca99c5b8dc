#include "perfci/model/shard.h"

#include <charconv>

#include "perfci/util/error.h"

namespace perfci {

ShardSpec parse_shard(const std::string& text) {
  auto bad = [&] {
    return Error("--shard '" + text + "': expected K/N with 1 <= K <= N, e.g. 2/3");
  };
  auto slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  ShardSpec s;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto k = std::from_chars(begin, begin + slash, s.index);
  auto n = std::from_chars(begin + slash + 1, end, s.count);
  if (k.ec != std::errc{} || k.ptr != begin + slash || n.ec != std::errc{} || n.ptr != end ||
      slash == 0 || s.count < 1 || s.index < 1 || s.index > s.count)
    throw bad();
  return s;
}

std::string format_shard(const ShardSpec& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

std::vector<std::string> ShardPlan::names_of(int shard) const {
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (e.shard == shard) out.push_back(e.name);
  return out;
}

std::vector<double> ShardPlan::shard_seconds() const {
  std::vector<double> out(static_cast<std::size_t>(count), 0.0);
  for (const auto& e : entries) out[static_cast<std::size_t>(e.shard - 1)] += e.cost.seconds;
  return out;
}

}  // namespace perfci
