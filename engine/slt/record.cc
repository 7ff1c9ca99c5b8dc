#include "engine/slt/record.h"

namespace engine::slt {

bool Record::AppliesTo(const std::string& engine_name) const {
  for (const Condition& c : conditions) {
    if (c.only_if && c.engine != engine_name) return false;
    if (!c.only_if && c.engine == engine_name) return false;
  }
  return true;
}

}  // namespace engine::slt
