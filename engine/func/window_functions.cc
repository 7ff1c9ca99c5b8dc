#include "engine/func/window_functions.h"

#include <cmath>

namespace engine::func {

namespace {

bool EqualsUpper(std::string_view a, std::string_view upper) {
  if (a.size() != upper.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != upper[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<WindowFunction> FindWindowFunction(std::string_view name) {
  static constexpr struct {
    std::string_view name;
    WindowFunction fn;
  } kFunctions[] = {
      {"ROW_NUMBER", WindowFunction::kRowNumber},
      {"RANK", WindowFunction::kRank},
      {"DENSE_RANK", WindowFunction::kDenseRank},
      {"PERCENT_RANK", WindowFunction::kPercentRank},
      {"CUME_DIST", WindowFunction::kCumeDist},
      {"NTILE", WindowFunction::kNtile},
      {"LAG", WindowFunction::kLag},
      {"LEAD", WindowFunction::kLead},
      {"FIRST_VALUE", WindowFunction::kFirstValue},
      {"LAST_VALUE", WindowFunction::kLastValue},
      {"NTH_VALUE", WindowFunction::kNthValue},
  };
  for (const auto& f : kFunctions) {
    if (EqualsUpper(name, f.name)) return f.fn;
  }
  return std::nullopt;
}

bool WindowArityOk(WindowFunction f, int n) {
  switch (f) {
    case WindowFunction::kRowNumber:
    case WindowFunction::kRank:
    case WindowFunction::kDenseRank:
    case WindowFunction::kPercentRank:
    case WindowFunction::kCumeDist:
      return n == 0;
    case WindowFunction::kNtile:
    case WindowFunction::kFirstValue:
    case WindowFunction::kLastValue:
      return n == 1;
    case WindowFunction::kLag:
    case WindowFunction::kLead:
      return n >= 1 && n <= 3;
    case WindowFunction::kNthValue:
      return n == 2;
  }
  return false;
}

bool UsesFrame(WindowFunction f) {
  return f == WindowFunction::kFirstValue || f == WindowFunction::kLastValue ||
         f == WindowFunction::kNthValue;
}

int64_t NtileBucket(int64_t row, int64_t total, int64_t buckets) {
  const int64_t size = total / buckets;
  if (size == 0) return row + 1;
  const int64_t large = total - buckets * size;  // buckets holding size + 1 rows
  const int64_t in_large = large * (size + 1);
  if (row < in_large) return 1 + row / (size + 1);
  return 1 + large + (row - in_large) / size;
}

std::optional<int64_t> NthValueIndex(const Value& v) {
  if (v.type() == ValueType::kInteger) return v.as_int();
  if (v.type() == ValueType::kReal) {
    const double r = v.as_real();
    if (!(r >= -9.2e18 && r <= 9.2e18)) return std::nullopt;
    const auto i = static_cast<int64_t>(r);
    if (static_cast<double>(i) != r) return std::nullopt;
    return i;
  }
  return std::nullopt;
}

}  // namespace engine::func
