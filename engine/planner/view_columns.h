// The columns a view presents: their names (the view's column list, else its
// SELECT's result names made unique as sqlite3 makes them, "a", "a:1", ...)
// and their declared types (a result that is a plain column reference takes
// that column's declared type, through views and FROM subqueries; anything
// else has none). PRAGMA table_info of a view shows these.
#pragma once

#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/status.h"

namespace engine::plan {

struct ViewColumn {
  std::string name;
  std::string type;  // "" when the result has no declared type
};

// Plans the view's SELECT against `schema`: its errors are the view's
// ("no such table: main.x", "expected 2 columns for 'v' but got 3").
Result<std::vector<ViewColumn>> ViewColumns(const catalog::Schema& schema,
                                            const catalog::ViewInfo& view);

// `names` with each name that repeats an earlier one (letter case aside)
// renamed "<name>:<n>", n counting up per collision, as SQLite names the
// columns of a view or a FROM subquery.
std::vector<std::string> UniqueColumnNames(std::vector<std::string> names);

}  // namespace engine::plan
