// The compiled form of a statement: expressions as flat node arrays with
// every name resolved to a source slot, and per SELECT core the chosen access
// path of each FROM item (a nested loop, outermost first). Plans are built
// once per prepare and run any number of times; nothing here points into the
// parse tree.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/func/aggregates.h"
#include "engine/func/collation.h"
#include "engine/planner/window_plan.h"
#include "engine/sql/ast.h"
#include "engine/value.h"

namespace engine::plan {

using catalog::Affinity;

enum class Op : uint8_t {
  kConst,     // k
  kParam,     // col: 0-based parameter index
  kColumn,    // src, col: record position (or -1: the rowid); flags kRealColumn
  kGroupCol,  // col: captured value of the current group
  kAggRef,    // col: aggregate slot of the current group
  kUnary,     // sub: sql::UnaryOp; a
  kBinary,    // sub: sql::BinaryOp; a, b; aff: comparison affinity
  kIsNull,    // a; kNegated
  kBetween,   // a BETWEEN b AND c; kNegated; aff; kCmp* flags: a >= b's collation, sub: a <= c's
  kLike,      // sub: sql::LikeOp; a LIKE b [ESCAPE c]; kNegated
  kInList,    // a IN (list); kNegated; aff; kCmp*
  kInSelect,  // a IN (subquery col); kNegated; kCmp*
  kExists,    // subquery col
  kScalar,    // subquery col
  // [a] list of (when, then) pairs [ELSE b]; with a, kCmp* (every WHEN's
  // collation), or col >= 0: Program::case_collations[col] holds one per WHEN
  kCase,
  kCast,      // a AS aff
  kFunction,  // col: index into func's scalar function table; list of arguments; kCmp*
  kRaise,     // RAISE() in a trigger: sub: sql::ConflictAction; k: the message
};

struct Node {
  // kCollNoCase / kCollRtrim: the collation the node carries into
  // comparisons, ORDER BY, GROUP BY... (SQLite's sqlite3ExprCollSeq), from
  // COLLATE (kCollExplicit) or from a column's definition.
  // kCmpNoCase / kCmpRtrim: the collation a comparing node (a comparison,
  // BETWEEN, IN, CASE x WHEN, min()/max()/nullif()) compares TEXT under,
  // chosen from its operands by the planner as SQLite's
  // sqlite3BinaryCompareCollSeq chooses; kept apart from kColl*, which
  // describe the node's own result.
  enum Flags : uint8_t {
    kNegated = 1,
    kRealColumn = 2,
    kCollNoCase = 4,
    kCollRtrim = 8,
    kCollExplicit = 16,
    kCollMask = kCollNoCase | kCollRtrim | kCollExplicit,
    kCmpNoCase = 32,
    kCmpRtrim = 64,
    kCmpMask = kCmpNoCase | kCmpRtrim,
    // A table's rowid (kColumn, or its kGroupCol capture): unlike other
    // columns it has no collation, so a compound's column takes the next
    // core's, as in SQLite.
    kRowid = 128,
  };
  Op op = Op::kConst;
  uint8_t sub = 0;
  uint8_t flags = 0;
  Affinity aff = Affinity::kNone;  // for comparisons; for kCast the target
  int32_t a = -1, b = -1, c = -1;
  int32_t src = -1;
  int32_t col = -1;
  uint32_t list = 0, nlist = 0;  // slice of Program::lists
  Value k;
};

struct AggSpec {
  func::AggregateKind kind = func::AggregateKind::kCount;
  bool distinct = false;
  func::Collation coll = func::Collation::kBinary;  // min()/max() and DISTINCT compare under it
  int32_t arg = -1;                                 // node
  int32_t arg2 = -1;                                // group_concat separator
};

enum class Access : uint8_t {
  kScan,        // every row (of the table, or of the index when `index` is set)
  kRowidEq,     // eq[0]
  kRowidRange,  // lo / hi
  kRowidIn,     // rowid IN (eq...): one seek per distinct key, in key order
  kIndex,       // eq prefix of `index`, then lo / hi on the next column
  kSubquery,    // rows of a FROM subquery or view, materialised
  // A CTE that reads the enclosing query's row: materialised again at every
  // scan (kSubquery keeps its rows for the execution).
  kCorrelatedSubquery,
  // A recursive CTE (subquery: its Program::ctes index): streamed when it is
  // the outermost loop, else materialised.
  kRecursive,
  kRecursiveRow,  // the row a recursive CTE's step runs on (subquery: its Program::ctes index)
  kOneRow,        // no FROM clause
};

struct Level {
  int src = -1;
  const catalog::TableInfo* table = nullptr;
  std::string display;  // name for EXPLAIN: alias or table name
  int subquery = -1;
  Access access = Access::kScan;
  const catalog::IndexInfo* index = nullptr;
  bool covering = false;         // the index alone answers; the table is not read
  bool reverse = false;          // walk backwards (ORDER BY ... DESC on the rowid or the index)
  bool rowid_order = false;      // ORDER BY relies on rowid order: keep the table scan
  std::vector<int32_t> eq;       // key nodes
  std::vector<Affinity> eq_aff;  // comparison affinity of each equality
  int32_t lo = -1, hi = -1;
  Affinity lo_aff = Affinity::kNone, hi_aff = Affinity::kNone;
  bool lo_inclusive = true, hi_inclusive = true;
  std::vector<int32_t> on_filters;  // decide whether the row joins
  // on_filters without the conjuncts the seek already guarantees: those of
  // a rowid seek (the executor picks this list when its keys were
  // integers), and those of an index seek (always picked for kIndex).
  std::vector<int32_t> residual_filters;
  std::vector<int32_t> where_filters;  // for LEFT JOIN levels: checked after null-extension
  bool left_join = false;
  bool cross_join = false;  // CROSS JOIN: as in SQLite, the loops stay in FROM order
  // INDEXED BY: the only access path (a seek on it, else a walk of all of
  // it); NOT INDEXED: rowid paths and table scans only.
  const catalog::IndexInfo* indexed_by = nullptr;
  bool not_indexed = false;
  int window = -1;  // kSubquery: Program::windows stage run over the rows (window_plan.h)

  // Equality on every column of a UNIQUE index: at most one row (a NULL
  // key matches none, and the executor finds none for it).
  bool unique_eq() const {
    return access == Access::kIndex && index != nullptr && index->unique &&
           eq.size() == index->columns.size() && lo < 0 && hi < 0;
  }
};

struct Core {
  std::vector<Level> levels;
  std::vector<int32_t> constant_filters;  // refer to no source of this core
  std::vector<int32_t> results;           // visible + hidden sort columns
  bool aggregate = false;
  std::vector<int32_t> group_by;                // normal nodes
  std::vector<func::Collation> group_by_colls;  // each term's: groups are equal under them
  int32_t having = -1;                          // aggregate-mode node
  std::vector<AggSpec> aggs;
  std::vector<int32_t> captures;  // normal nodes whose values a group keeps
  bool distinct = false;
  std::vector<func::Collation> distinct_colls;  // each result column's, for DISTINCT
  bool values = false;                          // a VALUES core: rows of constants
  std::vector<std::vector<int32_t>> value_rows;
};

struct SortKey {
  int column = 0;  // in the output row (hidden columns follow the visible ones)
  bool desc = false;
  func::Collation coll = func::Collation::kBinary;
};

// The collation bits of Node::flags for `c` (kCollExplicit not included).
inline uint8_t CollationFlags(func::Collation c) {
  switch (c) {
    case func::Collation::kNoCase:
      return Node::kCollNoCase;
    case func::Collation::kRtrim:
      return Node::kCollRtrim;
    case func::Collation::kBinary:
      break;
  }
  return 0;
}

// The kCmp* bits for comparing under `c`, and back.
inline uint8_t CompareFlags(func::Collation c) {
  return static_cast<uint8_t>(CollationFlags(c) << 3);
}
inline func::Collation CompareCollation(const Node& n) {
  if (n.flags & Node::kCmpNoCase) return func::Collation::kNoCase;
  if (n.flags & Node::kCmpRtrim) return func::Collation::kRtrim;
  return func::Collation::kBinary;
}

// An expression's collation as SQLite's sqlite3ExprCollSeq finds it: none
// (no column and no COLLATE in the way), a column's own, or an explicit
// COLLATE, which takes precedence when two operands disagree.
struct CollationOf {
  enum class Source : uint8_t { kNone, kColumn, kExplicit };
  func::Collation coll = func::Collation::kBinary;
  Source source = Source::kNone;
};

struct Select {
  std::vector<Core> cores;
  std::vector<sql::CompoundOp> ops;
  std::vector<SortKey> order;
  bool sort_needed = false;  // false: the loop order already satisfies ORDER BY
  int32_t limit = -1, offset = -1;
  int visible = 0;
  int width = 0;  // visible + hidden
  std::vector<std::string> names;
  std::vector<Affinity> affinities;  // of each visible column, for views and IN
  // Of each visible column: the leftmost core's that has one (SQLite's
  // multiSelectCollSeq). Compound sets compare under them; a view's or FROM
  // subquery's column carries it as a column's own.
  std::vector<CollationOf> collations;
  std::vector<std::string> aliases;  // AS names ("" when none), for ORDER BY
  bool correlated = false;           // refers to a source of an enclosing query
  // The SELECT being planned when this one was (whose expressions hold it,
  // for a subquery expression); -1 for the statement's own.
  int parent = -1;
  // Materialised rows take the columns' affinities, as the ephemeral table
  // does where SQLite materialises a CTE (MATERIALIZED, or read twice).
  bool store_affinity = false;
  std::vector<int> outer_refs;  // sources of enclosing queries it reads
};

// INSERT, UPDATE and DELETE on one table.
// A table's CHECK constraint compiled against the row a write proposes
// (Dml::check_src): what it reads decides whether an UPDATE evaluates it.
struct CheckPlan {
  int32_t node = -1;
  const std::string* label = nullptr;  // the TableInfo's CheckInfo::label
  std::vector<int> columns;            // table columns it reads (not the rowid alias)
  bool reads_rowid = false;            // the rowid, or the INTEGER PRIMARY KEY column
};

struct Dml {
  enum class Kind : uint8_t { kInsert, kUpdate, kDelete };
  Kind kind = Kind::kInsert;
  const catalog::TableInfo* table = nullptr;
  sql::ConflictAction conflict = sql::ConflictAction::kDefault;
  // INSERT: rows of `source` (a select); column_map[c] is the source column
  // for table column c, or -1 for its default (defaults[c], a node or -1).
  int source = -1;
  bool materialize_source = false;  // the source reads the target table
  std::vector<int> column_map;
  int rowid_source = -1;  // source column given for the rowid itself
  std::vector<int32_t> defaults;
  // UPDATE / DELETE: the rows of `level` (one table) that pass `filters`.
  Level level;
  std::vector<int32_t> filters;
  std::vector<std::pair<int, int32_t>> sets;  // table column (-1: rowid), value node
  // `level` and `filters` as a one-table core, so the SELECT loop finds the rows.
  Core scan;
  Select scan_select;
  // A view written through its INSTEAD OF triggers: `table` is then `view`,
  // the view's columns as a table without a B-tree (for NEW and OLD), and
  // the rows come from `source` (INSERT's) or `view_rows`: the view's rows
  // that match WHERE, all its columns, then UPDATE's SET values in `sets`'
  // order.
  std::unique_ptr<catalog::TableInfo> view;
  int view_rows = -1;
  // INSERT ... ON CONFLICT: per clause, in order, the constraint it names
  // (a position in table->indexes, -1 the rowid, kAnyConstraint none:
  // every uniqueness constraint) and what a conflict there does: skip the
  // row, or update the row in the way with `sets` (nodes that read it as
  // source upsert_src and the row proposed as source excluded_src) where
  // `where` holds.
  struct Upsert {
    static constexpr int kAnyConstraint = -2;
    int target = kAnyConstraint;
    bool nothing = true;
    std::vector<std::pair<int, int32_t>> sets;  // table column (-1: rowid), value node
    int32_t where = -1;
    std::vector<uint32_t> checks;  // the `checks` DO UPDATE evaluates, as an UPDATE's
  };
  std::vector<Upsert> upsert;
  int upsert_src = -1;
  int excluded_src = -1;
  // The table's CHECK constraints (none when it has none, or the statement
  // is a DELETE), read the new row as source check_src. An INSERT evaluates
  // them all; an UPDATE, as sqlite3, only update_checks: those that read a
  // column it SETs (or the rowid, when it SETs that).
  std::vector<CheckPlan> checks;
  int check_src = -1;
  std::vector<uint32_t> update_checks;
};

// A recursive common table expression (planner/planner_cte.cc,
// exec/recursive_cte.cc): the rows of `setup` go into a queue; each row
// taken out of it is a result row, and `step` runs once on it (reading it
// through its kRecursiveRow level), adding its rows to the queue.
struct RecursiveCte {
  int setup = -1;              // select: the initial rows
  int step = -1;               // select: the recursive select(s), UNION ALL among themselves
  bool distinct = false;       // UNION: a row equal to any row queued before is dropped
  std::vector<SortKey> order;  // ORDER BY: the queue takes the least row first; else FIFO
  int32_t limit = -1, offset = -1;
  int width = 0;
  std::string name;  // for EXPLAIN
  // Of each column (the setup's). SQLite reads a REAL column of the CTE as
  // a REAL everywhere, and applies every affinity to the rows it
  // materialises (not to those of a co-routine).
  std::vector<Affinity> affinities;
  // Of each column, for the UNION set and ORDER BY: the first term's (left
  // to right) that has one, as SQLite's multiSelectCollSeq picks it.
  std::vector<func::Collation> collations;
};

// Everything a statement runs: nodes, subqueries, sources.
struct Program {
  std::vector<Node> nodes;
  std::vector<int32_t> lists;
  std::vector<std::unique_ptr<std::string>> strings;  // bytes of constants
  std::deque<Select>
      selects;  // stable addresses; [0] is the statement's own SELECT, when it has one
  std::vector<RecursiveCte> ctes;
  int source_count = 0;
  int parameter_count = 0;
  // Per-WHEN collations of the CASE nodes whose WHENs disagree (kCase col).
  std::vector<std::vector<func::Collation>> case_collations;
  std::unique_ptr<Dml> dml;
  std::vector<WindowStage> windows;  // by Level::window
  // It names an object of the temp database: the connection makes that
  // database before it runs the plan (until then its catalog is empty).
  bool uses_temp = false;
  // It names a table or view (sqlite_schema too). A statement that names
  // none (SELECT 1 + 1) runs without a read transaction and without looking
  // at the schema cookie, as sqlite3's program without OP_Transaction does.
  bool reads_tables = false;

  const Node& node(int32_t i) const { return nodes[static_cast<size_t>(i)]; }
};

}  // namespace engine::plan
