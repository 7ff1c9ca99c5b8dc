// Turns parse trees into plans: resolves every name against the schema (with
// SQLite's error messages), compiles expressions to plan::Node arrays, splits
// WHERE into conjuncts, and picks each FROM item's access path (rowid and
// index seeks, covering scans, index nested-loop joins) and whether ORDER BY
// needs a sort.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/planner/plan.h"
#include "engine/sql/ast.h"
#include "engine/status.h"

namespace engine::plan {

struct ResolvedWindow;

// One FROM item visible to name resolution.
struct ScopeItem {
  std::string name;  // alias, else table name
  int src = -1;
  const catalog::TableInfo* table = nullptr;  // null for subqueries and views
  std::vector<std::string> columns;           // subqueries and views
  std::vector<Affinity> affinities;
  std::vector<func::Collation> collations;  // subqueries and views: each column's
  bool hidden_rowid = true;                 // false for subqueries: no rowid
  std::vector<std::string> using_hidden;    // USING / NATURAL columns owned by the left side
  // A table or view of the schema ("main"), not a subquery or CTE ("*"):
  // sqlite3 expands * to main.name.col or *.name.col (see BindCore).
  bool schema_object = false;
};

struct Scope {
  std::vector<ScopeItem> items;
  const Scope* parent = nullptr;
  int first_src = 0;         // sources below belong to enclosing queries
  Select* select = nullptr;  // marked correlated when a name resolves further out
  // Aggregate mode: column references become captured group values.
  Core* agg_core = nullptr;
};

// The operator's name in SQLite's errors ("UNION ALL"), and "1st", "2nd",
// "3rd", "4th"... for the i-th (0-based) term of an ORDER BY or GROUP BY.
const char* CompoundName(sql::CompoundOp op);
std::string OrdinalText(size_t i);

// SQLite's sqlite3BinaryCompareCollSeq on two operands' collations.
func::Collation PickCompareCollation(const CollationOf& left, const CollationOf& right);

class Planner {
 public:
  Planner(const catalog::Schema& schema, Program* program);
  struct WindowBinding;  // a core with window functions being bound (planner_window.h)

  // INSERT / UPDATE / DELETE into program->dml.
  Status PlanInsert(const sql::Ast& ast, const sql::InsertStmt& st);
  Status PlanUpdate(const sql::Ast& ast, const sql::UpdateStmt& st);
  Status PlanDelete(const sql::Ast& ast, const sql::DeleteStmt& st);
  // Plans a SELECT; returns its index in program->selects.
  Result<int> PlanSelect(const sql::Ast& ast, sql::SelectId id, const Scope* outer);
  // Compiles an expression against `scope` (null: no columns visible).
  Result<int32_t> CompileExpr(const sql::Ast& ast, sql::ExprId id, const Scope* scope);
  // Plans a trigger program's statement: NEW.x / OLD.x of `table` become
  // parameters (OLD at 0..n, NEW at n+1..2n+1 for n columns, each block's
  // last slot the rowid) and RAISE() is allowed.
  void SetTriggerRow(const catalog::TableInfo* table, bool has_old, bool has_new);
  // Where names without a qualifier are looked up: temp, then main (kAny),
  // except in the body of a main trigger (kMain), whose objects SQLite
  // resolves in the trigger's own database.
  void SetDefaultScope(catalog::DbScope scope) { default_scope_ = scope; }
  // The CHECK constraints of `t`, compiled against its row as source `src`,
  // into *out in declaration order (planner_check.cc).
  Status CompileChecks(const catalog::TableInfo& t, int src, std::vector<CheckPlan>* out);
  // CREATE TABLE's CHECK expressions (of `ast`) against the new table `t`,
  // for sqlite3's errors: no such column or function, a subquery, a
  // parameter, an aggregate. Nothing is kept.
  Status ValidateChecks(const sql::Ast& ast, const sql::CreateTableStmt& st,
                        const catalog::TableInfo& t);
  // Adds a node and returns its index.
  int32_t AddNode(const Node& n);
  // Marks column `col` of `src` as read (for covering index decisions).
  void MarkUsed(int src, int col);
  // A source slot for a FROM item (or a DML target).
  int NewSource();
  // The affinity an expression node carries into comparisons.
  Affinity ExprAffinity(int32_t node) const;
  // The collation an expression sorts by (SQLite's sqlite3ExprCollSeq): an
  // explicit COLLATE, else a column's own, through CAST and unary plus.
  func::Collation ExprCollation(int32_t node) const;
  // The same, saying whether it came from a column or an explicit COLLATE.
  CollationOf ExprCollationOf(int32_t node) const;
  bool HasExplicitCollation(int32_t node) const;
  // The collation `left <op> right` compares TEXT under (SQLite's
  // sqlite3BinaryCompareCollSeq): an explicit COLLATE on the left, else on
  // the right, else the left's column, else the right's, else BINARY.
  func::Collation ComparisonCollation(int32_t left, int32_t right) const;
  // Whether the node reads no column, group, aggregate or subquery
  // (sqlite3ExprIsConstant, as far as the engine's nodes go).
  bool IsConstant(int32_t node) const;
  // The result column of `s` that ORDER BY term k names (by number, AS
  // alias, or with by_name the column's name, under its outermost COLLATE,
  // which goes to *explicit_coll), or -1 when it is an expression.
  Result<int> OrderTermColumn(const sql::Ast& ast, sql::ExprId expr, size_t k, const Select& s,
                              bool by_name, std::optional<func::Collation>* explicit_coll);
  // The first argument's that has one, else BINARY (min(), max(), nullif()).
  func::Collation FirstArgumentCollation(const int32_t* args, size_t n) const;
  // Splits a WHERE tree into AND-ed conjuncts.
  static void SplitAnd(const sql::Ast& ast, sql::ExprId id, std::vector<sql::ExprId>* out);
  // Chooses the access path of a single-table DML statement's target.
  // src_level must map the level's source (see SetSingleLevel).
  void ChooseAccess(Level* level, const std::vector<int32_t>& conjuncts, int level_index);
  // ChooseAccess without INDEXED BY's fallback to a walk of the index.
  void ChooseIndexAccess(Level* level, const std::vector<int32_t>& conjuncts, int level_index);
  // Makes `src` the only source of the current query level (DML targets).
  void SetSingleLevel(int src);
  Status AddValue(const Value& v, Node* n);

  // The CTEs of WITH clause `with` (an Ast::withs index, or -1) are visible
  // while this lives (a statement's WITH before INSERT, UPDATE or DELETE).
  class WithScope {
   public:
    WithScope(Planner* p, const sql::Ast& ast, int32_t with)
        : p_(p), saved_(p->EnterWith(ast, with, nullptr)) {}
    ~WithScope() { p_->LeaveWith(saved_); }
    WithScope(const WithScope&) = delete;
    WithScope& operator=(const WithScope&) = delete;

   private:
    Planner* p_;
    int saved_;
  };

 private:
  struct CoreBinding;
  // One WITH clause being planned (planner_cte.cc).
  struct CteFrame {
    const sql::Ast* ast = nullptr;
    const sql::WithClause* with = nullptr;
    int parent = -1;  // the frame of the enclosing WITH
    // The scope around the select that owns the WITH: a CTE body may read
    // the enclosing query's row, as that select may.
    const Scope* outer = nullptr;
    struct State {
      const char* error = nullptr;  // set while the body is being planned
      int select = -1;              // planned plain body, shared by every reference
      // While the step of a recursive CTE is planned: its direct references
      // (the current row) and the Program::ctes entry they read.
      std::vector<const sql::TableRef*> recursive_refs;
      int recursive = -1;
      std::vector<Affinity> affinities;
    };
    std::vector<State> states;
  };
  // PlanSelect without the select's own WITH (planner_select.cc).
  Result<int> PlanSelectBody(const sql::Ast& ast, const sql::Select& s, const Scope* outer);
  // Common table expressions (planner_cte.cc). EnterWith makes a WITH
  // clause's names visible and returns what LeaveWith restores.
  int EnterWith(const sql::Ast& ast, int32_t with, const Scope* outer);
  void LeaveWith(int saved) { cte_top_ = saved; }
  // A FROM table name that names a visible CTE: fills `item` and `level`
  // and returns true; false when no CTE has that name. `scope` is the one
  // the reference is in.
  Result<bool> ResolveCte(const sql::TableRef& ref, const Scope* scope, ScopeItem* item,
                          Level* level);
  // A CTE body that reads enclosing rows (`refs`) makes the queries from
  // `scope` out to those rows' owners correlated.
  static void MarkCorrelated(const Scope* scope, const std::vector<int>& refs);
  Status PlanRecursiveCte(int frame, size_t cte, size_t first_recursive, int* index);
  Result<const catalog::TableInfo*> WritableTable(const std::string& schema,
                                                  const std::string& name);
  void FinishScan(Dml* dml);
  // INSERT / UPDATE / DELETE on a view with an INSTEAD OF trigger for the
  // event (planner_view_dml.cc); null when `name` is not such a view.
  const catalog::ViewInfo* InsteadOfView(const std::string& schema, const std::string& name,
                                         sql::CreateTriggerStmt::Event event) const;
  Status PlanViewInsert(const sql::Ast& ast, const sql::InsertStmt& st, const catalog::ViewInfo& v);
  Status PlanViewChange(const sql::Ast& ast, const catalog::ViewInfo& v, const std::string& alias,
                        sql::ExprId where,
                        const std::vector<std::pair<std::string, sql::ExprId>>* assignments);
  // Dml::upsert: the ON CONFLICT clauses of an INSERT.
  Status PlanUpsert(const sql::Ast& ast, const sql::InsertStmt& st, Dml* dml);
  // INSERT's column list into dml->column_map (rowid_names: "rowid" names
  // the rowid) and its rows' select into dml->source, with sqlite3's errors.
  Status PlanInsertColumns(const sql::Ast& ast, const sql::InsertStmt& st,
                           const catalog::TableInfo& t, bool rowid_names, Dml* dml);
  // Dml::defaults: the DEFAULT nodes an INSERT or an ON CONFLICT REPLACE needs.
  Status CompileDefaults(Dml* dml);
  // Dml::checks and which of them an UPDATE (or each DO UPDATE) evaluates.
  Status PlanChecks(Dml* dml);
  // One CHECK expression against `scope`, subqueries and parameters refused.
  Result<int32_t> CompileCheck(const sql::Ast& ast, sql::ExprId id, const Scope& scope);
  Status PlanTarget(const sql::Ast& ast, const catalog::TableInfo* t, const std::string& alias,
                    sql::ExprId where, Scope* scope, Dml* dml, const std::string& indexed_by = {},
                    bool not_indexed = false);
  Result<int32_t> Compile(const sql::Ast& ast, sql::ExprId id, const Scope* scope);
  Result<int32_t> CompileNode(const sql::Ast& ast, sql::ExprId id, const Scope* scope);
  // Window functions (planner_window.cc).
  static bool HasWindowCall(const sql::Ast& ast, sql::ExprId id);
  // WINDOW w AS (ORDER BY count(*)) makes the core an aggregate one.
  bool WindowClauseHasAggregate(const sql::Ast& ast, const sql::SelectCore& sc) const;
  static bool CoreHasWindowCall(const sql::Ast& ast, const sql::SelectCore& sc,
                                const sql::Select& sel, bool first);
  std::unique_ptr<WindowBinding> NewWindowBinding(const Scope* scope, const sql::SelectCore& sc);
  Result<int32_t> CompileInWindowStage(const sql::Ast& ast, sql::ExprId id, const Scope* scope);
  Result<int32_t> CompileWindowCall(const sql::Ast& ast, const sql::Expr& e, const Scope* scope);
  Result<int> InnerColumn(const sql::Ast& ast, sql::ExprId id, const Scope* scope);
  int32_t InnerRef(int32_t node);  // a node of the inner row, read by the window stage's core
  // `def` with its base windows applied; `limit`: how many of the WINDOW
  // clause's definitions it may build on; `clause`: it is one of them.
  Status ResolveWindow(const sql::Ast& ast, const sql::WindowDef& def, size_t limit, bool clause,
                       ResolvedWindow* out);
  Result<int> WindowSpecFor(const sql::Ast& ast, const ResolvedWindow& rw, const Scope* scope);
  void FinishWindowCore(Select* out, Core* core, const CoreBinding& bind, WindowBinding* wb);
  Result<int32_t> CompileColumn(const sql::Ast& ast, const sql::Expr& e, const Scope* scope);
  Result<int32_t> CompileFunction(const sql::Ast& ast, const sql::Expr& e, const Scope* scope);
  Result<int32_t> CompileSubquery(const sql::Ast& ast, const sql::Expr& e, const Scope* scope);
  // A reference to column `col` of `item` (captured when `s` is aggregating).
  Result<int32_t> ColumnRef(const Scope* s, const ScopeItem& item, int col);
  Status BindCore(const sql::Ast& ast, const sql::SelectCore& sc, const sql::Select& sel,
                  const Scope* outer, Select* out, Core* core, CoreBinding* bind, bool first);
  Status AddFromItem(const sql::Ast& ast, const sql::TableRef& ref, sql::JoinType join, Core* core,
                     CoreBinding* bind,
                     std::vector<std::pair<const sql::TableRef*, int>>* constraints);
  Status AddUsing(const std::vector<std::string>& columns, int level, Core* core,
                  CoreBinding* bind);
  void FinishCore(Core* core, const CoreBinding& bind);
  // INDEXED BY / NOT INDEXED of a table reference, checked against `t`.
  Status ApplyIndexHint(const catalog::TableInfo* t, const std::string& indexed_by,
                        bool not_indexed, Level* level);
  // Puts the core's loops in the order of least estimated cost (join_order.cc).
  void OrderJoins(Core* core, const std::vector<int32_t>& where);
  int MaxLevel(int32_t node) const;
  // The levels (by position, the first 64) that `node` reads, per src_level_.
  uint64_t LevelMask(int32_t node) const;
  void FinishCovering(Core* core);
  bool TrySatisfyOrder(Core* core, const std::vector<int32_t>& order_nodes,
                       const std::vector<SortKey>& order);
  bool IsAggregateCall(const sql::Ast& ast, sql::ExprId id) const;
  bool HasAggregate(const sql::Ast& ast, sql::ExprId id) const;

  // The core whose result columns (or ORDER BY) are being compiled, when it
  // has window functions: Compile reroutes its column references then.
  WindowBinding* window_ = nullptr;
  const catalog::Schema& schema_;
  Program* prog_;
  std::vector<std::vector<bool>> used_;                 // by source: columns read; last slot: rowid
  std::vector<std::unique_ptr<sql::Statement>> views_;  // parsed views, alive while planning
  int view_depth_ = 0;
  int planning_select_ = -1;  // the SELECT PlanSelectBody is inside (Select::parent)
  // kMain inside a main view's or trigger's body (SetDefaultScope).
  catalog::DbScope default_scope_ = catalog::DbScope::kAny;
  // The scope a FROM item's or DML target's qualifier names (the default
  // scope without one), or sqlite3's "no such table: q.name".
  Result<catalog::DbScope> ScopeOfRef(const std::string& qualifier, const std::string& name) const;
  // Notes that the plan reads or writes the database (Program::reads_tables),
  // and which: temp's (Program::uses_temp).
  template <typename T>
  const T* Used(const T* object) {
    if (object == nullptr) return object;
    prog_->reads_tables = true;
    if (object->db == catalog::Db::kTemp) prog_->uses_temp = true;
    return object;
  }
  bool in_check_ = false;  // compiling a CHECK: no subqueries, no parameters
  const catalog::TableInfo* trigger_table_ = nullptr;  // see SetTriggerRow
  bool trigger_old_ = false;
  bool trigger_new_ = false;
  // While compiling an aggregate's argument: the scope whose columns must
  // not be captured as group values.
  const Scope* suppress_capture_ = nullptr;
  std::vector<int> src_level_;  // source -> level of the core being finished, or -1
  std::vector<std::pair<int, std::vector<std::string>>> natural_refs_;
  std::vector<std::string> natural_;
  std::vector<std::unique_ptr<CteFrame>> cte_frames_;  // every WITH planned so far
  int cte_top_ = -1;                                   // innermost visible one, or -1
  int cte_depth_ = 0;                                  // CTE bodies being planned
};

}  // namespace engine::plan
