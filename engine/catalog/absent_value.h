// What a column reads as in a row whose record ends before it: a row written
// before sqlite3's ALTER TABLE ADD COLUMN, which rewrites no row. sqlite3
// reads the new column's DEFAULT there (OP_Column's default, made by
// sqlite3ValueFromExpr), so the engine must too: NULL would be a wrong
// answer on every database a migration added a column to.
#pragma once

#include "engine/func/affinity.h"
#include "engine/func/value_arena.h"
#include "engine/sql/ast.h"
#include "engine/value.h"

namespace engine::catalog {

// The DEFAULT of `cd` as sqlite3ValueFromExpr makes it, under the column's
// affinity `aff`: NULL, a string, a blob, TRUE/FALSE, or a number with
// optional '+', '-' and parentheses. A 32-bit integer is taken as a number;
// any other number as its token's text (DEFAULT 1e3 reads '1e3' in a TEXT
// column, 1000 in an INTEGER one); a '-' makes the value numeric, negates it
// and applies the affinity again. Anything else reads NULL: ALTER TABLE
// refuses a non-constant default, and a row without the column can only
// come from ALTER TABLE. Text and blob bytes go into `arena`.
Value AbsentValue(const sql::Ast& ast, const sql::ColumnDef& cd, func::Affinity aff,
                  func::ValueArena& arena);

}  // namespace engine::catalog
