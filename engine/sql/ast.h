// The parse tree of one SQL statement.
//
// Expressions live in an arena (Ast::exprs) as 40-byte plain nodes that name
// their children by 32-bit index instead of owning them through pointers:
// one allocation per statement instead of one per node, trees that copy and
// move as a few vectors, nodes that sit next to each other in memory for the
// planner's and executor's walks, and side tables (resolved column slots,
// constant folding results) that later stages can index by ExprId without
// touching the tree. Variable-length parts (argument lists, IN lists, CASE
// arms) are slices of Ast::lists; names and literals are Ast::strings.
//
// Every node records its height; the parser refuses trees deeper than
// kMaxExprDepth, so recursive walks over a parsed tree are bounded.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace engine::sql {

using ExprId = uint32_t;
using SelectId = uint32_t;
using StrId = uint32_t;
inline constexpr ExprId kNoExpr = std::numeric_limits<uint32_t>::max();
inline constexpr uint32_t kMaxExprDepth = 1000;  // SQLite's SQLITE_MAX_EXPR_DEPTH

enum class ExprKind : uint8_t {
  kNull,
  kInteger,    // u.integer
  kReal,       // u.real
  kString,     // u.ids.a: the text
  kBlob,       // u.ids.a: the bytes
  kParameter,  // u.ids.a: the spelling ("?", "?3", ":name"), u.ids.b: 1-based index
  kColumn,     // u.ids.a: column name, u.ids.b: table qualifier or kNoStr
  kUnary,      // op: UnaryOp; left
  kBinary,     // op: BinaryOp; left, right
  kIsNull,     // left IS NULL / ISNULL; kNegated for NOT NULL / NOTNULL / IS NOT NULL
  kBetween,    // left BETWEEN right AND third; kNegated
  kLike,       // op: LikeOp; left LIKE right [ESCAPE third]; kNegated
  kInList,     // left IN (list); kNegated
  kInSelect,   // left IN (u.select); kNegated
  kCase,       // CASE [left] list=(when, then)... [ELSE right] END
  kCast,       // CAST(left AS u.ids.a)
  kCollate,    // left COLLATE u.ids.a
  kFunction,   // u.ids.a(list); kDistinct, kStar for count(*); third: FILTER (WHERE expr);
               // kOver: u.ids.b indexes Ast::windows (f(...) OVER ...)
  kSubquery,   // (u.select), a scalar subquery
  kExists,     // EXISTS (u.select)
  kRaise,      // RAISE(op: ConflictAction kIgnore/kRollback/kAbort/kFail[, u.ids.a: message])
};

enum class UnaryOp : uint8_t { kNegate, kPlus, kNot, kBitNot };

enum class BinaryOp : uint8_t {
  kOr,
  kAnd,
  kEq,
  kNe,
  kIs,
  kIsNot,
  kLt,
  kLe,
  kGt,
  kGe,
  kBitAnd,
  kBitOr,
  kShiftLeft,
  kShiftRight,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kRemainder,
  kConcat,
};

enum class LikeOp : uint8_t { kLike, kGlob, kMatch, kRegexp };

inline constexpr StrId kNoStr = std::numeric_limits<uint32_t>::max();

struct Expr {
  enum Flags : uint8_t {
    kNegated = 1,       // NOT IN, NOT BETWEEN, NOT LIKE, NOT NULL
    kDistinct = 2,      // f(DISTINCT x)
    kStar = 4,          // count(*)
    kDoubleQuoted = 8,  // "name": SQLite falls back to a string if no column matches
    kOver = 16,         // a window function call: u.ids.b is its Ast::windows entry
  };

  ExprKind kind = ExprKind::kNull;
  uint8_t op = 0;
  uint8_t flags = 0;
  uint8_t unused = 0;
  uint32_t height = 1;
  ExprId left = kNoExpr;
  ExprId right = kNoExpr;
  ExprId third = kNoExpr;
  uint32_t list_begin = 0;  // slice of Ast::lists
  uint32_t list_size = 0;
  union {
    int64_t integer;
    double real;
    SelectId select;
    struct {
      uint32_t a;
      uint32_t b;
    } ids;
  } u = {0};

  bool has(Flags f) const { return (flags & f) != 0; }
  UnaryOp unary_op() const { return static_cast<UnaryOp>(op); }
  BinaryOp binary_op() const { return static_cast<BinaryOp>(op); }
  LikeOp like_op() const { return static_cast<LikeOp>(op); }
};
static_assert(sizeof(Expr) == 40, "keep expression nodes compact");

enum class SortOrder : uint8_t { kDefault, kAsc, kDesc };
enum class NullsOrder : uint8_t { kDefault, kFirst, kLast };

struct OrderingTerm {
  ExprId expr = kNoExpr;  // may be an integer literal: a result column number
  SortOrder order = SortOrder::kDefault;
  NullsOrder nulls = NullsOrder::kDefault;
};

struct ResultColumn {
  enum class Kind : uint8_t { kExpr, kStar, kTableStar };
  Kind kind = Kind::kExpr;
  ExprId expr = kNoExpr;
  std::string alias;        // AS name, or empty
  std::string table;        // for t.*
  std::string source_text;  // the expression as written: SQLite's column name without an alias
};

// A window definition (SQLite's windowfunctions.html): OVER (...) of one
// call, OVER name (only `base` set) or WINDOW name AS (...) of a SELECT.
enum class FrameUnit : uint8_t { kRows, kRange, kGroups };
enum class FrameBound : uint8_t {
  kUnboundedPreceding,
  kPreceding,  // expr PRECEDING
  kCurrentRow,
  kFollowing,  // expr FOLLOWING
  kUnboundedFollowing,
};
enum class FrameExclude : uint8_t { kNoOthers, kCurrentRow, kGroup, kTies };

struct WindowDef {
  std::string name;        // WINDOW name AS (...); empty for OVER (...)
  std::string base;        // the named window it builds on, or empty
  bool bare_name = false;  // OVER name: the named window itself, unchanged
  std::vector<ExprId> partition_by;
  std::vector<OrderingTerm> order_by;
  bool has_frame = false;
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start = FrameBound::kUnboundedPreceding;
  FrameBound end = FrameBound::kCurrentRow;
  ExprId start_expr = kNoExpr;
  ExprId end_expr = kNoExpr;
  FrameExclude exclude = FrameExclude::kNoOthers;
  // An EXCLUDE clause was written (even EXCLUDE NO OTHERS, which SQLite
  // computes row by row like the others).
  bool has_exclude = false;
  uint32_t offset = 0;  // where the call's name (or OVER) starts, for errors
};

enum class JoinType : uint8_t { kComma, kInner, kLeft, kCross, kNatural, kNaturalLeft };

struct TableRef {
  enum class Kind : uint8_t { kTable, kSubquery, kGroup };
  Kind kind = Kind::kTable;
  JoinType join = JoinType::kComma;  // how it joins the refs before it; ignored for the first
  std::string schema;
  std::string name;
  std::string alias;
  SelectId select = 0;          // kSubquery
  std::vector<TableRef> group;  // kGroup: a parenthesised join
  ExprId on = kNoExpr;
  std::vector<std::string> using_columns;
  // INDEXED BY name / NOT INDEXED: the one index the loop must use, or none.
  std::string indexed_by;
  bool not_indexed = false;
};

// One SELECT ... or one VALUES (...), (...) of a compound select.
struct SelectCore {
  bool distinct = false;
  std::vector<ResultColumn> columns;
  std::vector<TableRef> from;
  ExprId where = kNoExpr;
  std::vector<ExprId> group_by;
  ExprId having = kNoExpr;
  std::vector<std::vector<ExprId>> values;  // non-empty for VALUES; then columns is empty
  std::vector<uint32_t> windows;            // WINDOW clause: entries of Ast::windows
  bool is_values() const { return !values.empty(); }
};

enum class CompoundOp : uint8_t { kUnion, kUnionAll, kIntersect, kExcept };

struct Select {
  int32_t with = -1;  // index into Ast::withs: the WITH clause before this select, or -1
  std::vector<SelectCore> cores;
  std::vector<CompoundOp> ops;  // ops[i] joins cores[i] and cores[i + 1]
  std::vector<OrderingTerm> order_by;
  ExprId limit = kNoExpr;
  ExprId offset = kNoExpr;
};

// One common table expression: name [(columns)] AS [[NOT] MATERIALIZED] (select).
struct CommonTableExpr {
  enum class Materialized : uint8_t { kDefault, kYes, kNo };
  std::string name;
  std::vector<std::string> columns;  // empty: the select's own names
  Materialized materialized = Materialized::kDefault;
  SelectId select = 0;
};

// WITH [RECURSIVE] cte, ...: SQLite treats every CTE that names itself as
// recursive whether or not RECURSIVE is written, so the flag is kept only
// for rendering.
struct WithClause {
  bool recursive = false;
  std::vector<CommonTableExpr> ctes;
};

// The node storage of one statement, shared by all its subqueries.
struct Ast {
  std::vector<Expr> exprs;
  std::vector<ExprId> lists;
  std::vector<std::string> strings;
  std::vector<Select> selects;
  std::vector<WithClause> withs;
  // The WITH before an INSERT, UPDATE or DELETE (a SELECT keeps its own in
  // Select::with), or -1.
  int32_t statement_with = -1;
  std::vector<WindowDef> windows;  // OVER clauses and WINDOW definitions
  // Byte offsets in the prepared text of column references and function
  // calls, by ExprId (shorter than exprs, kNoOffset elsewhere): a planner
  // error about one ("no such column") points there, as SQLite's does.
  // A side table, so that the nodes the planner walks stay 40 bytes.
  std::vector<uint32_t> offsets;
  static constexpr uint32_t kNoOffset = std::numeric_limits<uint32_t>::max();

  const Expr& expr(ExprId id) const { return exprs[id]; }
  // Where node `e` (a node of this Ast) starts; -1 when not recorded.
  int offset_of(const Expr& e) const {
    const std::less<const Expr*> before;
    if (before(&e, exprs.data()) || !before(&e, exprs.data() + offsets.size())) return -1;
    const uint32_t off = offsets[static_cast<size_t>(&e - exprs.data())];
    return off == kNoOffset ? -1 : static_cast<int>(off);
  }
  std::string_view str(StrId id) const {
    return id == kNoStr ? std::string_view() : std::string_view(strings[id]);
  }
  const ExprId* list(const Expr& e) const { return lists.data() + e.list_begin; }
  const Select& select(SelectId id) const { return selects[id]; }
};

enum class ConflictAction : uint8_t { kDefault, kRollback, kAbort, kFail, kIgnore, kReplace };

struct IndexedColumn {
  std::string name;
  std::string collation;
  SortOrder order = SortOrder::kDefault;
  uint32_t offset = 0;  // of the name in the statement's text: "no such column" points here
};

// A CHECK constraint, column or table level, as sqlite3 records it: the
// expression, the constraint's name (the last CONSTRAINT name before it
// that is still in force, dequoted; "" when none) and the text between its
// parentheses as written, whitespace trimmed at both ends. The error names
// the constraint by `name`, else by `text`.
struct CheckDef {
  ExprId expr = kNoExpr;
  std::string name;
  std::string text;
};

struct ColumnDef {
  std::string name;
  std::string type;  // declared type as written, "" when absent
  bool primary_key = false;
  SortOrder primary_key_order = SortOrder::kDefault;
  bool autoincrement = false;
  bool not_null = false;
  bool unique = false;
  ExprId default_value = kNoExpr;
  // The DEFAULT as written (inside its parentheses, if any), which is what
  // sqlite3's PRAGMA table_info shows.
  std::string default_text;
  std::string collation;
  std::vector<CheckDef> checks;
  ConflictAction primary_key_conflict = ConflictAction::kDefault;
  ConflictAction not_null_conflict = ConflictAction::kDefault;
  ConflictAction unique_conflict = ConflictAction::kDefault;
};

struct TableConstraint {
  enum class Kind : uint8_t { kPrimaryKey, kUnique, kCheck, kForeignKey };
  Kind kind = Kind::kPrimaryKey;
  std::string name;  // CONSTRAINT name
  std::vector<IndexedColumn> columns;
  CheckDef check;  // kCheck (its ON CONFLICT is parsed and ignored, as by sqlite3)
  ConflictAction conflict = ConflictAction::kDefault;
  std::string foreign_table;  // kForeignKey: REFERENCES table(columns)
  std::vector<std::string> foreign_columns;
};

struct CreateTableStmt {
  bool temporary = false;
  bool if_not_exists = false;
  std::string schema;
  std::string name;
  uint32_t name_at = 0;  // byte offset of the name, for "table t already exists"
  std::vector<ColumnDef> columns;
  std::vector<TableConstraint> constraints;
  bool without_rowid = false;
  bool strict = false;
  std::optional<SelectId> as_select;
  // The text sqlite_schema.sql holds: "CREATE TABLE " and the source from the
  // table name on, exactly as SQLite writes it (IF NOT EXISTS and TEMP dropped).
  std::string schema_sql;
};

struct CreateIndexStmt {
  bool unique = false;
  bool if_not_exists = false;
  std::string schema;
  std::string name;
  std::string table;
  std::vector<IndexedColumn> columns;
  ExprId where = kNoExpr;  // partial index
  std::string schema_sql;
};

struct CreateViewStmt {
  bool temporary = false;
  bool if_not_exists = false;
  std::string schema;
  std::string name;
  uint32_t name_at = 0;  // byte offset of the name, for "view v already exists"
  std::vector<std::string> columns;
  SelectId select = 0;
  std::string schema_sql;
};

// CREATE TRIGGER. The body is kept as the text of each statement (parsed
// again, each into its own tree, when a statement that fires it is planned);
// the WHEN clause is an expression of this statement's Ast.
struct CreateTriggerStmt {
  enum class Timing : uint8_t { kBefore, kAfter, kInsteadOf };
  enum class Event : uint8_t { kInsert, kUpdate, kDelete };
  bool temporary = false;
  bool if_not_exists = false;
  std::string schema;
  std::string name;
  uint32_t name_at = 0;  // byte offset of the name, for "trigger t already exists"
  Timing timing = Timing::kBefore;
  Event event = Event::kInsert;
  std::vector<std::string> columns;  // UPDATE OF columns; empty: any
  std::string table_schema;
  std::string table;
  ExprId when = kNoExpr;
  std::vector<std::string> body;
  std::string schema_sql;
};

struct DropStmt {
  enum class Kind : uint8_t { kTable, kIndex, kView, kTrigger };
  Kind kind = Kind::kTable;
  bool if_exists = false;
  std::string schema;
  std::string name;
};

// ON CONFLICT [(target) [WHERE ...]] DO NOTHING | DO UPDATE SET ... [WHERE
// ...] of an INSERT (UPSERT).
struct UpsertClause {
  std::vector<IndexedColumn> target;  // empty: any PRIMARY KEY or UNIQUE conflict
  ExprId target_where = kNoExpr;
  bool do_nothing = true;
  std::vector<std::pair<std::string, ExprId>> assignments;  // DO UPDATE SET
  ExprId where = kNoExpr;                                   // DO UPDATE ... WHERE
};

struct InsertStmt {
  ConflictAction conflict = ConflictAction::kDefault;  // INSERT OR x / REPLACE INTO
  std::vector<UpsertClause> upsert;                    // ON CONFLICT clauses, in order
  std::string schema;
  std::string table;
  std::string alias;
  std::vector<std::string> columns;  // empty: all columns in order
  bool default_values = false;
  std::optional<SelectId> select;  // VALUES rows are a select of value cores
};

struct UpdateStmt {
  ConflictAction conflict = ConflictAction::kDefault;
  std::string schema;
  std::string table;
  std::string alias;
  // INDEXED BY name / NOT INDEXED: the one index the loop must use, or none.
  std::string indexed_by;
  bool not_indexed = false;
  std::vector<std::pair<std::string, ExprId>> assignments;
  ExprId where = kNoExpr;
};

struct DeleteStmt {
  std::string schema;
  std::string table;
  std::string alias;
  // INDEXED BY name / NOT INDEXED: the one index the loop must use, or none.
  std::string indexed_by;
  bool not_indexed = false;

  ExprId where = kNoExpr;
};

struct SelectStmt {
  SelectId select = 0;
};

struct BeginStmt {
  enum class Mode : uint8_t { kDeferred, kImmediate, kExclusive };
  Mode mode = Mode::kDeferred;
};
struct CommitStmt {};
struct RollbackStmt {};

struct PragmaStmt {
  std::string schema;
  uint32_t name_at = 0;  // byte offset of the (qualified) name, for "unknown database x"
  std::string name;
  std::optional<std::string> value;  // = value or (value), as written (quotes removed)
};

// REINDEX [[schema.]name]: every index (no name), those using a collating
// sequence, a table's, or one index.
struct ReindexStmt {
  std::string schema;
  std::string name;      // "" for every index
  uint32_t name_at = 0;  // byte offset of the (qualified) name, for "unknown database x"
};

using StatementBody = std::variant<SelectStmt, InsertStmt, UpdateStmt, DeleteStmt, CreateTableStmt,
                                   CreateIndexStmt, CreateViewStmt, DropStmt, BeginStmt, CommitStmt,
                                   RollbackStmt, PragmaStmt, CreateTriggerStmt, ReindexStmt>;

enum class ExplainMode : uint8_t { kNone, kExplain, kQueryPlan };

struct Statement {
  ExplainMode explain = ExplainMode::kNone;
  StatementBody body;
  Ast ast;
  std::string text;  // source of the statement, without the terminating ';'
  // parameter_names[i] names parameter i + 1: "?3", ":name", "@x", "$y", or
  // "" for a bare '?'. Its size is the parameter count (the largest index).
  std::vector<std::string> parameter_names;

  template <typename T>
  const T* as() const {
    return std::get_if<T>(&body);
  }
};

}  // namespace engine::sql
