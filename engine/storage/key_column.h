// How an index orders one key column: its direction and its collating
// sequence, SQLite's KeyInfo (aSortFlags + aColl) for one field. Every
// comparison of an index key goes through these, so that a key is stored,
// sought and checked for uniqueness under the collation its CREATE INDEX (or
// the column's definition) names: an index on a NOCASE column that the engine
// ordered by BINARY would be a corrupt file to sqlite3.
//
// An empty span of KeyColumns means every column ascending and BINARY (table
// keys, the rowid, and most indexes); columns past the end of a span are the
// same. The rowid that ends every index key is always ascending and BINARY.
#pragma once

#include <span>

#include "engine/func/collation.h"

namespace engine {

struct KeyColumn {
  bool desc = false;
  func::Collation coll = func::Collation::kBinary;

  bool operator==(const KeyColumn&) const = default;
};

using KeyOrder = std::span<const KeyColumn>;

}  // namespace engine
