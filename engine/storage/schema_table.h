// sqlite_schema: the table b-tree on page 1 that lists every table, index,
// view and trigger (type, name, tbl_name, rootpage, sql). Every change bumps
// the schema cookie so other connections (and sqlite3) reload the schema.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine {

inline constexpr uint32_t kSchemaRootPage = 1;

struct SchemaEntry {
  std::string type;  // "table", "index", "view" or "trigger"
  std::string name;
  std::string tbl_name;
  uint32_t rootpage = 0;           // 0 for views and triggers
  std::optional<std::string> sql;  // NULL for automatic indexes
  int64_t rowid = 0;

  bool operator==(const SchemaEntry&) const = default;
};

// Every row of sqlite_schema in rowid order. Needs a read transaction.
Result<std::vector<SchemaEntry>> ReadSchema(BTree& tree);

// Appends a row (rowid = the largest plus one, stored in entry->rowid) and
// bumps the schema cookie. Needs a write transaction.
Status AddSchemaEntry(BTree& tree, SchemaEntry* entry);

// Deletes every row whose name is `name`; NotFound when there is none.
Status RemoveSchemaEntry(BTree& tree, std::string_view name);

}  // namespace engine
