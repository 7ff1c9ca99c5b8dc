#include "engine/shell/query_plan.h"

namespace engine::shell {
namespace {

// The children of `parent` in row order, each followed by its own subtree.
void RenderChildren(const std::vector<QueryPlanRow>& rows, int64_t parent, std::string* prefix,
                    std::string* out) {
  std::vector<size_t> children;
  for (size_t i = 0; i < rows.size(); ++i) {
    // A row cannot be its own child: a malformed plan would recurse forever.
    if (rows[i].parent == parent && rows[i].id != parent) children.push_back(i);
  }
  for (size_t c = 0; c < children.size(); ++c) {
    const QueryPlanRow& row = rows[children[c]];
    const bool last = c + 1 == children.size();
    *out += *prefix + (last ? "`--" : "|--") + row.detail + "\n";
    const size_t n = prefix->size();
    *prefix += last ? "   " : "|  ";
    // Ids grow down the tree in every plan the engine makes; a child with a
    // smaller id than its parent would be a cycle, so it is not followed.
    if (row.id > parent) RenderChildren(rows, row.id, prefix, out);
    prefix->resize(n);
  }
}

}  // namespace

std::string RenderQueryPlan(const std::vector<QueryPlanRow>& rows) {
  if (rows.empty()) return {};
  std::string out = "QUERY PLAN\n";
  std::string prefix;
  RenderChildren(rows, 0, &prefix, &out);
  return out;
}

}  // namespace engine::shell
