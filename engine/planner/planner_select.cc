// SELECT planning: FROM items and name scopes, result columns, aggregates,
// ORDER BY, and the access path of every FROM item.
#include <algorithm>
#include <optional>

#include "engine/planner/order_proof.h"
#include "engine/planner/planner.h"
#include "engine/planner/planner_window.h"
#include "engine/planner/view_columns.h"
#include "engine/sql/parser.h"

namespace engine::plan {

const char* CompoundName(sql::CompoundOp op) {
  switch (op) {
    case sql::CompoundOp::kUnion:
      return "UNION";
    case sql::CompoundOp::kUnionAll:
      return "UNION ALL";
    case sql::CompoundOp::kIntersect:
      return "INTERSECT";
    case sql::CompoundOp::kExcept:
      return "EXCEPT";
  }
  return "UNION";
}

std::string OrdinalText(size_t i) {
  static const char* kNames[] = {"1st", "2nd", "3rd"};
  return i < 3 ? std::string(kNames[i]) : std::to_string(i + 1) + "th";
}

using catalog::EqualsNoCase;

namespace {

// sqlite3 expands * and t.* to references main.name.col (tables and views)
// or *.name.col (subqueries and CTEs) and resolves them like any qualified
// name: when two FROM items of that name and kind both show the column, it
// is ambiguous, unless USING or NATURAL merged it into the left one.
Status StarColumnIsUnique(const Scope& scope, const ScopeItem& it, const std::string& col) {
  if (it.name.empty()) return Status::OK();  // an unnamed subquery is one of a kind
  int shown = 0;
  for (const ScopeItem& o : scope.items) {
    if (o.schema_object != it.schema_object || !EqualsNoCase(o.name, it.name)) continue;
    bool has = false;
    if (o.table != nullptr) {
      for (const catalog::ColumnInfo& c : o.table->columns) has |= EqualsNoCase(c.name, col);
    } else {
      for (const std::string& c : o.columns) has |= EqualsNoCase(c, col);
    }
    for (const std::string& h : o.using_hidden) has &= !EqualsNoCase(h, col);
    shown += has ? 1 : 0;
  }
  if (shown < 2) return Status::OK();
  return Status::SqlError("ambiguous column name: " + std::string(it.schema_object ? "main" : "*") +
                          "." + it.name + "." + col);
}

bool IndexAffinityOk(Affinity cmp, Affinity column) {
  if (cmp == Affinity::kBlob || cmp == Affinity::kNone) return true;
  if (cmp == Affinity::kText) return column == Affinity::kText;
  return catalog::IsNumericAffinity(column);
}

}  // namespace

struct Planner::CoreBinding {
  Scope scope;
  std::vector<int32_t> where;
  std::vector<std::pair<int32_t, int>> ons;  // (conjunct, level of its LEFT JOIN)
  std::unique_ptr<WindowBinding> window;     // a core with window functions
};

namespace {

// Sets the planner's window binding for a scope, as RAII.
class WindowScope {
 public:
  WindowScope(Planner::WindowBinding** slot, Planner::WindowBinding* wb)
      : slot_(slot), saved_(*slot) {
    *slot = wb;
  }
  ~WindowScope() { *slot_ = saved_; }
  WindowScope(const WindowScope&) = delete;
  WindowScope& operator=(const WindowScope&) = delete;

 private:
  Planner::WindowBinding** slot_;
  Planner::WindowBinding* saved_;
};

}  // namespace

Result<int32_t> Planner::ColumnRef(const Scope* s, const ScopeItem& item, int col) {
  Node n;
  n.op = Op::kColumn;
  n.src = item.src;
  n.col = col;
  if (item.table != nullptr) {
    if (col >= 0 && col == item.table->rowid_alias) n.col = -1;
    n.aff = n.col < 0 ? Affinity::kInteger : item.table->columns[static_cast<size_t>(col)].affinity;
    if (n.col < 0) n.flags |= Node::kRowid;
    if (n.aff == Affinity::kReal) n.flags |= Node::kRealColumn;
    if (n.col >= 0)
      n.flags |= CollationFlags(item.table->columns[static_cast<size_t>(col)].collation);
  } else if (col >= 0 && static_cast<size_t>(col) < item.affinities.size()) {
    n.aff = item.affinities[static_cast<size_t>(col)];
    if (static_cast<size_t>(col) < item.collations.size()) {
      n.flags |= CollationFlags(item.collations[static_cast<size_t>(col)]);
    }
  }
  MarkUsed(item.src, n.col);
  const int32_t id = AddNode(n);
  if (s == nullptr || s->agg_core == nullptr || s == suppress_capture_) return id;
  auto& caps = s->agg_core->captures;
  size_t slot = caps.size();
  for (size_t i = 0; i < caps.size(); ++i) {
    const Node& c = prog_->node(caps[i]);
    if (c.src == n.src && c.col == n.col) slot = i;
  }
  if (slot == caps.size()) caps.push_back(id);
  Node g;
  g.op = Op::kGroupCol;
  g.col = static_cast<int32_t>(slot);
  g.aff = n.aff;
  g.flags = n.flags;
  return AddNode(g);
}

Status Planner::AddFromItem(const sql::Ast& ast, const sql::TableRef& ref, sql::JoinType join,
                            Core* core, CoreBinding* bind,
                            std::vector<std::pair<const sql::TableRef*, int>>* constraints) {
  if (ref.kind == sql::TableRef::Kind::kGroup) {
    for (size_t i = 0; i < ref.group.size(); ++i) {
      ENGINE_RETURN_IF_ERROR(AddFromItem(ast, ref.group[i], i == 0 ? join : ref.group[i].join, core,
                                         bind, constraints));
    }
    if (ref.on != sql::kNoExpr || !ref.using_columns.empty()) {
      constraints->push_back({&ref, static_cast<int>(core->levels.size()) - 1});
    }
    return Status::OK();
  }
  ScopeItem item;
  Level level;
  level.left_join = join == sql::JoinType::kLeft || join == sql::JoinType::kNaturalLeft;
  level.cross_join = join == sql::JoinType::kCross;
  if (ref.kind == sql::TableRef::Kind::kSubquery) {
    ENGINE_ASSIGN_OR_RETURN(int sel, PlanSelect(ast, ref.select, nullptr));
    const Select& s = prog_->selects[static_cast<size_t>(sel)];
    item.columns = s.names;
    item.affinities = s.affinities;
    for (const CollationOf& c : s.collations) item.collations.push_back(c.coll);
    item.hidden_rowid = false;
    level.subquery = sel;
    level.access = Access::kSubquery;
    item.name = ref.alias;
    level.display = ref.alias.empty() ? "(subquery)" : ref.alias;
  } else {
    ENGINE_ASSIGN_OR_RETURN(const catalog::DbScope scope, ScopeOfRef(ref.schema, ref.name));
    const catalog::TableInfo* t = nullptr;
    bool cte = false;
    if (ref.schema.empty()) {
      ENGINE_ASSIGN_OR_RETURN(cte, ResolveCte(ref, &bind->scope, &item, &level));
    }
    if (!cte) t = Used(schema_.FindTable(ref.name, scope));
    if (cte) {
      // A common table expression shadows a table or view of its name.
    } else if (t != nullptr) {
      item.table = t;
      item.schema_object = true;
      item.name = ref.alias.empty() ? t->name : ref.alias;
      level.table = t;
      // sqlite3 shows a qualified name as written ("SCAN main.t").
      level.display = !ref.alias.empty()   ? ref.alias
                      : ref.schema.empty() ? t->name
                                           : ref.schema + "." + t->name;
      ENGINE_RETURN_IF_ERROR(ApplyIndexHint(t, ref.indexed_by, ref.not_indexed, &level));
    } else if (const catalog::ViewInfo* v = Used(schema_.FindView(ref.name, scope))) {
      if (view_depth_ > 32) return Status::SqlError("view " + v->name + " is circularly defined");
      // Errors inside the view's own text have no place in the statement's.
      auto parsed = sql::ParseStatement(v->sql);
      if (!parsed.ok()) return Status(parsed.status()).WithOffset(-1);
      views_.push_back(std::make_unique<sql::Statement>(std::move(*parsed)));
      const sql::Statement& vs = *views_.back();
      const auto* cv = vs.as<sql::CreateViewStmt>();
      if (cv == nullptr) return Status::SqlError("malformed view " + v->name);
      ++view_depth_;
      // The statement's CTEs are not visible inside the view.
      const int ctes = cte_top_;
      cte_top_ = -1;
      // A main view's body names main's objects only; a TEMP view's, any.
      const catalog::DbScope outer_scope = default_scope_;
      if (v->db == catalog::Db::kMain) default_scope_ = catalog::DbScope::kMain;
      Result<int> sel = PlanSelect(vs.ast, cv->select, nullptr);
      default_scope_ = outer_scope;
      cte_top_ = ctes;
      --view_depth_;
      if (!sel.ok()) return Status(sel.status()).WithOffset(-1);
      const Select& s = prog_->selects[static_cast<size_t>(*sel)];
      item.columns = v->columns.empty() ? UniqueColumnNames(s.names) : v->columns;
      if (item.columns.size() != static_cast<size_t>(s.visible)) {
        return Status::SqlError("expected " + std::to_string(item.columns.size()) +
                                " columns for '" + v->name + "' but got " +
                                std::to_string(s.visible));
      }
      item.affinities = s.affinities;
      for (const CollationOf& c : s.collations) item.collations.push_back(c.coll);
      item.hidden_rowid = false;
      item.schema_object = true;
      item.name = ref.alias.empty() ? v->name : ref.alias;
      level.subquery = *sel;
      level.access = Access::kSubquery;
      level.display = item.name;
    } else {
      // A main view's or trigger's body names the tables of main: sqlite3 says so.
      return Status::SqlError(
          "no such table: " +
          (!ref.schema.empty()
               ? ref.schema + "."
               : std::string(default_scope_ == catalog::DbScope::kMain ? "main." : "")) +
          ref.name);
    }
  }
  item.src = NewSource();
  level.src = item.src;
  // NATURAL joins use every column name the new item shares with the left.
  if (join == sql::JoinType::kNatural || join == sql::JoinType::kNaturalLeft) {
    std::vector<std::string> names = item.table ? std::vector<std::string>{} : item.columns;
    if (item.table) {
      for (const auto& c : item.table->columns) names.push_back(c.name);
    }
    natural_.clear();
    for (const std::string& n : names) {
      for (const ScopeItem& left : bind->scope.items) {
        bool has = left.table
                       ? left.table->FindColumn(n) >= 0
                       : std::any_of(left.columns.begin(), left.columns.end(),
                                     [&](const std::string& c) { return EqualsNoCase(c, n); });
        if (has) {
          natural_.push_back(n);
          break;
        }
      }
    }
  }
  bind->scope.items.push_back(std::move(item));
  core->levels.push_back(std::move(level));
  if (join == sql::JoinType::kNatural || join == sql::JoinType::kNaturalLeft) {
    natural_refs_.push_back({static_cast<int>(core->levels.size()) - 1, natural_});
  }
  if (ref.on != sql::kNoExpr || !ref.using_columns.empty()) {
    constraints->push_back({&ref, static_cast<int>(core->levels.size()) - 1});
  }
  return Status::OK();
}

Status Planner::AddUsing(const std::vector<std::string>& columns, int level, Core* core,
                         CoreBinding* bind) {
  ScopeItem& right = bind->scope.items[static_cast<size_t>(level)];
  for (const std::string& name : columns) {
    auto column_of = [&](const ScopeItem& it) -> int {
      if (it.table) {
        return it.table->FindColumn(name);
      }
      for (size_t i = 0; i < it.columns.size(); ++i) {
        if (EqualsNoCase(it.columns[i], name)) return static_cast<int>(i);
      }
      return -1;
    };
    const int rc = column_of(right);
    int li = -1, lc = -1;
    for (int i = 0; i < level && li < 0; ++i) {
      const int c = column_of(bind->scope.items[static_cast<size_t>(i)]);
      if (c >= 0) {
        li = i;
        lc = c;
      }
    }
    if (rc < 0 || li < 0) {
      return Status::SqlError("cannot join using column " + name +
                              " - column not present in both tables");
    }
    ENGINE_ASSIGN_OR_RETURN(int32_t l,
                            ColumnRef(nullptr, bind->scope.items[static_cast<size_t>(li)], lc));
    ENGINE_ASSIGN_OR_RETURN(int32_t r, ColumnRef(nullptr, right, rc));
    (void)lc;
    Node eq;
    eq.op = Op::kBinary;
    eq.sub = static_cast<uint8_t>(sql::BinaryOp::kEq);
    eq.a = l;
    eq.b = r;
    eq.aff = func::ComparisonAffinity(ExprAffinity(l), ExprAffinity(r));
    const int32_t id = AddNode(eq);
    if (core->levels[static_cast<size_t>(level)].left_join) {
      bind->ons.push_back({id, level});
    } else {
      bind->where.push_back(id);
    }
    right.using_hidden.push_back(name);
  }
  return Status::OK();
}

Status Planner::BindCore(const sql::Ast& ast, const sql::SelectCore& sc, const sql::Select& sel,
                         const Scope* outer, Select* out, Core* core, CoreBinding* bind,
                         bool first) {
  bind->scope.parent = outer;
  bind->scope.select = out;
  bind->scope.first_src = prog_->source_count;
  if (sc.is_values()) {
    core->values = true;
    const size_t width = sc.values[0].size();
    for (const auto& row : sc.values) {
      if (row.size() != width) {
        return Status::SqlError("all VALUES must have the same number of terms");
      }
      std::vector<int32_t> compiled;
      for (sql::ExprId e : row) {
        ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, e, outer));
        compiled.push_back(c);
      }
      core->value_rows.push_back(std::move(compiled));
    }
    if (first) {
      out->visible = static_cast<int>(width);
      for (size_t i = 0; i < width; ++i) {
        out->names.push_back("column" + std::to_string(i + 1));
        out->affinities.push_back(Affinity::kNone);
      }
    }
    core->results.resize(width, -1);
    return Status::OK();
  }
  core->distinct = sc.distinct;
  std::vector<std::pair<const sql::TableRef*, int>> constraints;
  natural_refs_.clear();
  for (const sql::TableRef& ref : sc.from) {
    ENGINE_RETURN_IF_ERROR(AddFromItem(ast, ref, ref.join, core, bind, &constraints));
  }
  const auto naturals = natural_refs_;
  for (const auto& [level, cols] : naturals) {
    ENGINE_RETURN_IF_ERROR(AddUsing(cols, level, core, bind));
  }
  for (const auto& [ref, level] : constraints) {
    if (!ref->using_columns.empty()) {
      ENGINE_RETURN_IF_ERROR(AddUsing(ref->using_columns, level, core, bind));
      continue;
    }
    std::vector<sql::ExprId> terms;
    SplitAnd(ast, ref->on, &terms);
    for (sql::ExprId t : terms) {
      ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, t, &bind->scope));
      if (core->levels[static_cast<size_t>(level)].left_join) {
        bind->ons.push_back({c, level});
      } else {
        bind->where.push_back(c);
      }
    }
  }
  std::vector<sql::ExprId> terms;
  SplitAnd(ast, sc.where, &terms);
  for (sql::ExprId t : terms) {
    ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, t, &bind->scope));
    bind->where.push_back(c);
  }
  bool aggregate = !sc.group_by.empty() || HasAggregate(ast, sc.having);
  for (const sql::ResultColumn& rc : sc.columns) {
    if (rc.kind == sql::ResultColumn::Kind::kExpr && HasAggregate(ast, rc.expr)) aggregate = true;
  }
  if (first && sel.cores.size() == 1) {
    for (const sql::OrderingTerm& t : sel.order_by) aggregate |= HasAggregate(ast, t.expr);
  }
  aggregate |= WindowClauseHasAggregate(ast, sc);
  if (sc.having != sql::kNoExpr && sc.group_by.empty() && !aggregate) {
    return Status::SqlError("a GROUP BY clause is required before HAVING");
  }
  for (sql::ExprId g : sc.group_by) {
    const sql::Expr& ge = ast.expr(g);
    sql::ExprId target = g;
    if (ge.kind == sql::ExprKind::kInteger) {
      if (ge.u.integer < 1 || ge.u.integer > static_cast<int64_t>(sc.columns.size()) ||
          sc.columns[static_cast<size_t>(ge.u.integer - 1)].kind !=
              sql::ResultColumn::Kind::kExpr) {
        return Status::SqlError(OrdinalText(static_cast<size_t>(&g - sc.group_by.data())) +
                                " GROUP BY term out of range - should be between 1 and " +
                                std::to_string(sc.columns.size()));
      }
      target = sc.columns[static_cast<size_t>(ge.u.integer - 1)].expr;
    }
    if (HasAggregate(ast, target))
      return Status::SqlError("aggregate functions are not allowed in the GROUP BY clause");
    ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, target, &bind->scope));
    core->group_by.push_back(c);
  }
  // Groups are equal under each term's collation (SQLite's sorter KeyInfo);
  // all BINARY keeps the list empty and the comparison on its fast path.
  for (int32_t c : core->group_by) {
    if (ExprCollation(c) != func::Collation::kBinary) {
      for (int32_t g : core->group_by) core->group_by_colls.push_back(ExprCollation(g));
      break;
    }
  }
  core->aggregate = aggregate;
  if (aggregate) bind->scope.agg_core = core;
  if (CoreHasWindowCall(ast, sc, sel, first)) bind->window = NewWindowBinding(&bind->scope, sc);
  WindowScope window_scope(&window_, bind->window.get());
  // Result columns.
  for (const sql::ResultColumn& rc : sc.columns) {
    if (rc.kind == sql::ResultColumn::Kind::kExpr) {
      ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, rc.expr, &bind->scope));
      core->results.push_back(c);
      if (first) {
        const sql::Expr& e = ast.expr(rc.expr);
        std::string name = rc.alias;
        if (name.empty() && e.kind == sql::ExprKind::kColumn) {
          const Node& n0 = prog_->node(c);
          const bool windowed =
              window_ != nullptr && n0.op == Op::kColumn && n0.src == window_->src;
          const Node& n = windowed ? prog_->node(window_->inner[static_cast<size_t>(n0.col)]) : n0;
          const Node& col =
              n.op == Op::kGroupCol ? prog_->node(core->captures[static_cast<size_t>(n.col)]) : n;
          name = std::string(ast.str(e.u.ids.a));
          if (col.op == Op::kColumn) {
            for (const Scope* s = &bind->scope; s != nullptr; s = s->parent) {
              for (const ScopeItem& it : s->items) {
                if (it.src != col.src) continue;
                if (it.table != nullptr && col.col >= 0) {
                  name = it.table->columns[static_cast<size_t>(col.col)].name;
                } else if (it.table != nullptr && it.table->rowid_alias >= 0 &&
                           !EqualsNoCase(name, "rowid") && !EqualsNoCase(name, "oid") &&
                           !EqualsNoCase(name, "_rowid_")) {
                  name = it.table->columns[static_cast<size_t>(it.table->rowid_alias)].name;
                } else if (it.table == nullptr && col.col >= 0) {
                  name = it.columns[static_cast<size_t>(col.col)];
                }
              }
            }
          }
        }
        if (name.empty()) name = rc.source_text;
        out->names.push_back(name);
        out->affinities.push_back(ExprAffinity(c));
        out->aliases.push_back(rc.alias);
      }
      continue;
    }
    if (bind->scope.items.empty()) return Status::SqlError("no tables specified");
    bool matched = false;
    for (const ScopeItem& it : bind->scope.items) {
      if (rc.kind == sql::ResultColumn::Kind::kTableStar && !EqualsNoCase(it.name, rc.table)) {
        continue;
      }
      matched = true;
      const size_t ncol = it.table ? it.table->columns.size() : it.columns.size();
      for (size_t i = 0; i < ncol; ++i) {
        const std::string& cname = it.table ? it.table->columns[i].name : it.columns[i];
        if (rc.kind == sql::ResultColumn::Kind::kStar) {
          bool hidden = false;
          for (const auto& h : it.using_hidden) hidden |= EqualsNoCase(h, cname);
          if (hidden) continue;
        }
        ENGINE_RETURN_IF_ERROR(StarColumnIsUnique(bind->scope, it, cname));
        ENGINE_ASSIGN_OR_RETURN(int32_t c, ColumnRef(&bind->scope, it, static_cast<int>(i)));
        if (window_ != nullptr) c = InnerRef(c);
        core->results.push_back(c);
        if (first) {
          out->names.push_back(cname);
          out->affinities.push_back(ExprAffinity(c));
          out->aliases.push_back("");
        }
      }
    }
    if (!matched) return Status::SqlError("no such table: " + rc.table);
  }
  if (first) out->visible = static_cast<int>(core->results.size());
  window_ = nullptr;  // HAVING is no place for a window function
  if (sc.having != sql::kNoExpr) {
    ENGINE_ASSIGN_OR_RETURN(core->having, Compile(ast, sc.having, &bind->scope));
  }
  return Status::OK();
}

Result<int> Planner::PlanSelectBody(const sql::Ast& ast, const sql::Select& s, const Scope* outer) {
  if (prog_->selects.size() > 10000) return Status::SqlError("too many subqueries");
  const int index = static_cast<int>(prog_->selects.size());
  prog_->selects.emplace_back();
  Select* out = &prog_->selects.back();
  out->parent = planning_select_;
  struct Restore {
    int* slot;
    int saved;
    ~Restore() { *slot = saved; }
  } restore{&planning_select_, planning_select_};
  planning_select_ = index;
  if (s.cores.empty()) return Status::SqlError("empty SELECT");
  out->cores.reserve(s.cores.size());
  out->ops = s.ops;
  std::vector<std::unique_ptr<CoreBinding>> binds;
  for (size_t i = 0; i < s.cores.size(); ++i) {
    out->cores.emplace_back();
    binds.push_back(std::make_unique<CoreBinding>());
    ENGINE_RETURN_IF_ERROR(
        BindCore(ast, s.cores[i], s, outer, out, &out->cores[i], binds[i].get(), i == 0));
    if (i > 0 && out->cores[i].results.size() != static_cast<size_t>(out->visible)) {
      return Status::SqlError(std::string("SELECTs to the left and right of ") +
                              CompoundName(s.ops[i - 1]) +
                              " do not have the same number of result columns");
    }
  }
  const bool compound = s.cores.size() > 1;
  // Each column's collation: the leftmost core's that has one.
  out->collations.assign(static_cast<size_t>(out->visible), CollationOf{});
  for (const Core& core : out->cores) {
    for (size_t i = 0; i < out->collations.size(); ++i) {
      if (out->collations[i].source != CollationOf::Source::kNone) continue;
      const int32_t node = core.values ? core.value_rows[0][i] : core.results[i];
      out->collations[i] = ExprCollationOf(node);
    }
  }
  for (Core& core : out->cores) {
    if (!core.distinct) continue;
    for (size_t i = 0; i < out->collations.size(); ++i) {
      if (ExprCollation(core.results[i]) != func::Collation::kBinary) {
        for (size_t j = 0; j < out->collations.size(); ++j) {
          core.distinct_colls.push_back(ExprCollation(core.results[j]));
        }
        break;
      }
    }
  }
  std::vector<int32_t> order_nodes;
  for (size_t k = 0; k < s.order_by.size(); ++k) {
    const sql::OrderingTerm& term = s.order_by[k];
    std::optional<func::Collation> explicit_coll;
    ENGINE_ASSIGN_OR_RETURN(int col,
                            OrderTermColumn(ast, term.expr, k, *out, compound, &explicit_coll));
    if (col < 0 && compound) {
      return Status::SqlError(OrdinalText(k) +
                              " ORDER BY term does not match any column in the result set");
    }
    if (col < 0) {
      Core& core = out->cores[0];
      if (core.values) {
        return Status::SqlError(OrdinalText(k) +
                                " ORDER BY term does not match any column in the result set");
      }
      WindowScope window_scope(&window_, binds[0]->window.get());
      ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, term.expr, &binds[0]->scope));
      core.results.push_back(c);
      col = static_cast<int>(core.results.size() - 1);
      order_nodes.push_back(c);
    } else {
      order_nodes.push_back(out->cores[0].results[static_cast<size_t>(col)]);
    }
    // A compound's result column sorts by the compound's collation.
    const func::Collation coll = explicit_coll ? *explicit_coll
                                 : compound    ? out->collations[static_cast<size_t>(col)].coll
                                               : ExprCollation(order_nodes.back());
    out->order.push_back({col, term.order == sql::SortOrder::kDesc, coll});
  }
  out->width = static_cast<int>(out->cores[0].results.size());
  if (s.limit != sql::kNoExpr) {
    ENGINE_ASSIGN_OR_RETURN(out->limit, Compile(ast, s.limit, nullptr));
  }
  if (s.offset != sql::kNoExpr) {
    ENGINE_ASSIGN_OR_RETURN(out->offset, Compile(ast, s.offset, nullptr));
  }
  for (size_t i = 0; i < out->cores.size(); ++i) {
    if (binds[i]->window != nullptr) {
      FinishWindowCore(out, &out->cores[i], *binds[i], binds[i]->window.get());
    } else {
      FinishCore(&out->cores[i], *binds[i]);
    }
  }
  out->sort_needed = !out->order.empty();
  if (out->sort_needed && !compound && !out->cores[0].values) {
    if (TrySatisfyOrder(&out->cores[0], order_nodes, out->order)) out->sort_needed = false;
  }
  // Covering decisions come last: ORDER BY may have switched a scan to an index.
  for (Core& core : out->cores) FinishCovering(&core);
  (void)index;
  return index;
}

int Planner::MaxLevel(int32_t id) const {
  const Node& n = prog_->node(id);
  int m = -1;
  auto level_of = [&](int src) {
    return static_cast<size_t>(src) < src_level_.size() ? src_level_[static_cast<size_t>(src)] : -1;
  };
  switch (n.op) {
    case Op::kColumn:
      return level_of(n.src);
    case Op::kExists:
    case Op::kScalar:
    case Op::kInSelect:
      for (int src : prog_->selects[static_cast<size_t>(n.src)].outer_refs) {
        m = std::max(m, level_of(src));
      }
      break;
    default:
      break;
  }
  if (n.a >= 0) m = std::max(m, MaxLevel(n.a));
  if (n.b >= 0) m = std::max(m, MaxLevel(n.b));
  if (n.c >= 0) m = std::max(m, MaxLevel(n.c));
  for (uint32_t i = 0; i < n.nlist; ++i) m = std::max(m, MaxLevel(prog_->lists[n.list + i]));
  return m;
}

void Planner::SetSingleLevel(int src) {
  src_level_.assign(static_cast<size_t>(prog_->source_count), -1);
  src_level_[static_cast<size_t>(src)] = 0;
}

Result<int> Planner::OrderTermColumn(const sql::Ast& ast, sql::ExprId expr, size_t k,
                                     const Select& s, bool by_name,
                                     std::optional<func::Collation>* explicit_coll) {
  // "ORDER BY 2 COLLATE NOCASE" and "alias COLLATE NOCASE" still name a
  // result column, sorted by that collation (the outermost COLLATE wins).
  sql::ExprId target = expr;
  while (ast.expr(target).kind == sql::ExprKind::kCollate) {
    const std::string_view name = ast.str(ast.expr(target).u.ids.a);
    const std::optional<func::Collation> coll = func::CollationByName(name);
    if (!coll) return Status::SqlError("no such collation sequence: " + std::string(name));
    if (!*explicit_coll) *explicit_coll = coll;
    target = ast.expr(target).left;
  }
  const sql::Expr& te = ast.expr(target);
  if (te.kind == sql::ExprKind::kInteger) {
    if (te.u.integer < 1 || te.u.integer > s.visible) {
      return Status::SqlError(OrdinalText(k) +
                              " ORDER BY term out of range - should be between 1 and " +
                              std::to_string(s.visible));
    }
    return static_cast<int>(te.u.integer - 1);
  }
  if (te.kind != sql::ExprKind::kColumn || !ast.str(te.u.ids.b).empty()) return -1;
  const std::string_view name = ast.str(te.u.ids.a);
  for (size_t i = 0; i < s.aliases.size(); ++i) {
    if (!s.aliases[i].empty() && EqualsNoCase(s.aliases[i], name)) return static_cast<int>(i);
  }
  for (size_t i = 0; by_name && i < s.names.size(); ++i) {
    if (EqualsNoCase(s.names[i], name)) return static_cast<int>(i);
  }
  return -1;
}

void Planner::FinishCore(Core* core, const CoreBinding& bind) {
  if (core->values) return;
  OrderJoins(core, bind.where);
  src_level_.assign(static_cast<size_t>(prog_->source_count), -1);
  for (size_t i = 0; i < core->levels.size(); ++i) {
    src_level_[static_cast<size_t>(core->levels[i].src)] = static_cast<int>(i);
  }
  for (int32_t c : bind.where) {
    const int l = MaxLevel(c);
    if (l < 0) {
      core->constant_filters.push_back(c);
    } else if (core->levels[static_cast<size_t>(l)].left_join) {
      core->levels[static_cast<size_t>(l)].where_filters.push_back(c);
    } else {
      core->levels[static_cast<size_t>(l)].on_filters.push_back(c);
    }
  }
  for (const auto& [c, level] : bind.ons) {
    const int l = std::max(level, MaxLevel(c));
    core->levels[static_cast<size_t>(l)].on_filters.push_back(c);
  }
  for (size_t i = 0; i < core->levels.size(); ++i) {
    Level& lv = core->levels[i];
    if (lv.table == nullptr) continue;
    ChooseAccess(&lv, lv.on_filters, static_cast<int>(i));
  }
}

Result<catalog::DbScope> Planner::ScopeOfRef(const std::string& qualifier,
                                             const std::string& name) const {
  if (qualifier.empty()) return default_scope_;
  std::optional<catalog::DbScope> scope = catalog::ScopeOfQualifier(qualifier);
  if (!scope) return Status::SqlError("no such table: " + qualifier + "." + name);
  return *scope;
}

Status Planner::ApplyIndexHint(const catalog::TableInfo* t, const std::string& indexed_by,
                               bool not_indexed, Level* level) {
  level->not_indexed = not_indexed;
  if (indexed_by.empty()) return Status::OK();
  const catalog::IndexInfo* ix = schema_.FindIndex(indexed_by, catalog::ScopeOf(t->db));
  if (ix == nullptr || !EqualsNoCase(ix->table, t->name)) {
    return Status::SqlError("no such index: " + indexed_by);
  }
  level->indexed_by = ix;
  return Status::OK();
}

void Planner::ChooseAccess(Level* level, const std::vector<int32_t>& conjuncts, int level_index) {
  if (level->indexed_by != nullptr) {
    // INDEXED BY: a seek on that index where a conjunct allows, else a walk
    // of the whole index (sqlite3 3.40 walks it rather than fail).
    ChooseIndexAccess(level, conjuncts, level_index);
    if (level->access != Access::kIndex) {
      level->access = Access::kScan;
      level->index = level->indexed_by;
      level->residual_filters = conjuncts;
    }
    return;
  }
  ChooseIndexAccess(level, conjuncts, level_index);
}

void Planner::ChooseIndexAccess(Level* level, const std::vector<int32_t>& conjuncts,
                                int level_index) {
  struct Cand {
    int col;   // table column, -1: rowid
    int kind;  // 0 eq, 1 lower, 2 upper
    int32_t expr;
    bool inclusive;
    Affinity aff;
    int32_t conjunct;
    func::Collation coll;  // the comparison's: only an index column in it can seek
  };
  std::vector<Cand> cands;
  const catalog::TableInfo* t = level->table;
  auto column_of = [&](int32_t id, Affinity cmp) -> int {
    const Node& n = prog_->node(id);
    if (n.op != Op::kColumn || n.src != level->src) return -2;
    if (n.col >= 0 && !IndexAffinityOk(cmp, t->columns[static_cast<size_t>(n.col)].affinity)) {
      return -2;
    }
    return n.col;
  };
  auto usable = [&](int32_t id) { return MaxLevel(id) < level_index; };
  for (int32_t c : conjuncts) {
    const Node& n = prog_->node(c);
    if (n.op == Op::kBinary) {
      const auto op = static_cast<sql::BinaryOp>(n.sub);
      int kind = -1;
      bool incl = true;
      bool flip_lower = false;
      switch (op) {
        case sql::BinaryOp::kEq:
          kind = 0;
          break;
        case sql::BinaryOp::kGt:
          kind = 1;
          incl = false;
          break;
        case sql::BinaryOp::kGe:
          kind = 1;
          break;
        case sql::BinaryOp::kLt:
          kind = 2;
          incl = false;
          break;
        case sql::BinaryOp::kLe:
          kind = 2;
          break;
        default:
          break;
      }
      if (kind < 0) continue;
      const func::Collation coll = CompareCollation(n);
      int col = column_of(n.a, n.aff);
      if (col >= -1 && usable(n.b)) {
        cands.push_back({col, kind, n.b, incl, n.aff, c, coll});
        continue;
      }
      col = column_of(n.b, n.aff);
      if (col >= -1 && usable(n.a)) {
        flip_lower = true;
        if (kind == 1)
          kind = 2;
        else if (kind == 2)
          kind = 1;
        cands.push_back({col, kind, n.a, incl, n.aff, c, coll});
      }
      (void)flip_lower;
    } else if (n.op == Op::kBetween && !(n.flags & Node::kNegated)) {
      const int col = column_of(n.a, n.aff);
      if (col >= -1 && usable(n.b) && usable(n.c)) {
        cands.push_back({col, 1, n.b, true, n.aff, c, CompareCollation(n)});
        cands.push_back({col, 2, n.c, true, n.aff, c, static_cast<func::Collation>(n.sub)});
      }
    }
  }
  // A candidate on `col`: for the rowid (an integer, which no collation
  // changes) any; for an index column, one comparing under its collation,
  // or the seek would not find what the comparison matches.
  auto find = [&](int col, int kind,
                  std::optional<func::Collation> coll = std::nullopt) -> const Cand* {
    for (const Cand& c : cands) {
      if (c.col == col && c.kind == kind && (col == -1 || !coll || c.coll == *coll)) return &c;
    }
    return nullptr;
  };
  auto key_col = [&](const catalog::IndexInfo* ix, size_t k) {
    return ix->columns[k] == t->rowid_alias ? -1 : ix->columns[k];
  };
  // Conjuncts an exact seek makes redundant: those of the rowid (when its
  // keys are integers, see Level::residual_filters) and every one an index
  // seek consumed, as SQLite codes no test for a term its index loop
  // satisfies (the seek compares with the same affinity and collation).
  auto set_residual = [&](const std::vector<const Cand*>& used) {
    level->residual_filters.clear();
    for (int32_t c : conjuncts) {
      bool consumed = false;
      for (const Cand* u : used) consumed |= u != nullptr && u->conjunct == c;
      // A BETWEEN is consumed only when both of its bounds were used.
      if (consumed && prog_->node(c).op == Op::kBetween) {
        int uses = 0;
        for (const Cand* u : used) uses += u != nullptr && u->conjunct == c;
        consumed = uses == 2;
      }
      if (!consumed) level->residual_filters.push_back(c);
    }
  };
  const bool forced = level->indexed_by != nullptr;
  for (int32_t c : conjuncts) {
    if (forced) break;
    // rowid IN (constant list): a seek per value instead of a scan.
    const Node& n = prog_->node(c);
    if (n.op != Op::kInList || (n.flags & Node::kNegated) || n.nlist == 0) continue;
    const Node& col = prog_->node(n.a);
    if (col.op != Op::kColumn || col.src != level->src || col.col != -1) continue;
    bool ok = true;
    for (uint32_t i = 0; i < n.nlist; ++i) ok &= usable(prog_->lists[n.list + i]);
    if (!ok || find(-1, 0) != nullptr) continue;
    level->access = Access::kRowidIn;
    level->eq.assign(prog_->lists.begin() + n.list, prog_->lists.begin() + n.list + n.nlist);
    return;
  }
  if (const Cand* eq = forced ? nullptr : find(-1, 0)) {
    level->access = Access::kRowidEq;
    level->eq = {eq->expr};
    set_residual({eq});
    return;
  }
  int best_score = 0;
  const catalog::IndexInfo* best = nullptr;
  for (const catalog::IndexInfo* ix : t->indexes) {
    if (ix->partial || level->not_indexed) continue;
    if (forced && ix != level->indexed_by) continue;
    size_t k = 0;
    while (k < ix->columns.size() && find(key_col(ix, k), 0, ix->keys[k].coll)) ++k;
    int score = static_cast<int>(k) * 10;
    if (k < ix->columns.size() && !ix->keys[k].desc) {
      const int col = key_col(ix, k);
      if (find(col, 1, ix->keys[k].coll)) score += 3;
      if (find(col, 2, ix->keys[k].coll)) score += 3;
    }
    if (ix->unique && k == ix->columns.size()) score += 100;
    if (score > best_score) {
      best_score = score;
      best = ix;
    }
  }
  const Cand* rlo = find(-1, 1);
  const Cand* rhi = find(-1, 2);
  const int rowid_score = forced ? 0 : (rlo ? 4 : 0) + (rhi ? 4 : 0);
  if (rowid_score > 0 && rowid_score >= best_score) {
    level->access = Access::kRowidRange;
    if (rlo) {
      level->lo = rlo->expr;
      level->lo_inclusive = rlo->inclusive;
    }
    if (rhi) {
      level->hi = rhi->expr;
      level->hi_inclusive = rhi->inclusive;
    }
    set_residual({rlo, rhi});
    return;
  }
  if (best == nullptr) return;
  level->access = Access::kIndex;
  level->index = best;
  std::vector<const Cand*> used;
  size_t k = 0;
  while (k < best->columns.size()) {
    const Cand* eq = find(key_col(best, k), 0, best->keys[k].coll);
    if (eq == nullptr) break;
    level->eq.push_back(eq->expr);
    level->eq_aff.push_back(eq->aff);
    used.push_back(eq);
    ++k;
  }
  if (k < best->columns.size() && !best->keys[k].desc) {
    const int col = key_col(best, k);
    if (const Cand* lo = find(col, 1, best->keys[k].coll)) {
      level->lo = lo->expr;
      level->lo_inclusive = lo->inclusive;
      level->lo_aff = lo->aff;
      used.push_back(lo);
    }
    if (const Cand* hi = find(col, 2, best->keys[k].coll)) {
      level->hi = hi->expr;
      level->hi_inclusive = hi->inclusive;
      level->hi_aff = hi->aff;
      used.push_back(hi);
    }
  }
  set_residual(used);
}

bool Planner::TrySatisfyOrder(Core* core, const std::vector<int32_t>& order_nodes,
                              const std::vector<SortKey>& order) {
  if (core->aggregate || core->distinct || core->levels.empty()) return false;
  Level& lv = core->levels[0];
  if (lv.table == nullptr) return false;
  // Only the outermost loop's order reaches the output, and only as far as
  // the terms are its own columns: the rows of one outer row tie on them
  // however many inner rows it joins, while a term on an inner level (or an
  // expression) is ordered by nothing. Neither is a term under another
  // collation than the BINARY every usable index and the rowid are in.
  std::vector<OrderTerm> terms;
  for (size_t i = 0; i < order_nodes.size(); ++i) {
    const Node& n = prog_->node(order_nodes[i]);
    const bool plain = n.op == Op::kColumn && n.src == lv.src &&
                       (n.col == -1 || order[i].coll == func::Collation::kBinary);
    terms.push_back({plain ? n.col : kUnorderedTerm, order[i].desc});
  }
  // An inner level that finds at most one row per outer row (a rowid or
  // full unique-key equality) keeps the outer rowid unique in the output.
  bool repeats = false;
  for (size_t i = 1; i < core->levels.size(); ++i) {
    const Level& in = core->levels[i];
    const bool one =
        in.access == Access::kRowidEq || (in.access == Access::kIndex && in.index->unique &&
                                          in.eq.size() == in.index->columns.size());
    repeats |= !one;
  }
  const catalog::TableInfo* t = lv.table;
  auto index_order = [&](const catalog::IndexInfo* ix, size_t neq) {
    DeliveredOrder d;
    d.repeats = repeats;
    for (size_t i = 0; i < ix->columns.size(); ++i) {
      const int col = ix->columns[i] == t->rowid_alias ? -1 : ix->columns[i];
      // A NOCASE or RTRIM key orders (and ties) rows only under its own
      // collation, never under the BINARY of the terms proven here: the
      // walk's order is known up to it, and its equality fixes nothing.
      if (ix->keys[i].coll != func::Collation::kBinary && col != -1) return d;
      if (i < neq) {
        d.fixed.push_back(col);
      } else {
        d.keys.push_back({col, ix->keys[i].desc});
      }
    }
    d.keys.push_back({-1, false});  // the rowid ends every index key, ascending
    return d;
  };
  DeliveredOrder rowid_order;
  rowid_order.keys.push_back({-1, false});
  rowid_order.repeats = repeats;
  auto take = [&](OrderProof proof) {
    if (proof == OrderProof::kSort) return false;
    lv.reverse = proof == OrderProof::kReverse;
    return true;
  };
  switch (lv.access) {
    case Access::kRowidEq: {
      DeliveredOrder one;
      one.at_most_one_row = true;
      one.repeats = repeats;
      return take(ProveOrder(terms, one));
    }
    case Access::kRowidIn: {
      // One seek per key, the keys sorted ascending: never walked backwards.
      DeliveredOrder d = rowid_order;
      d.can_reverse = false;
      return ProveOrder(terms, d) == OrderProof::kForward;
    }
    case Access::kRowidRange:
    case Access::kScan:
      if (lv.indexed_by != nullptr && lv.access == Access::kScan) {
        return take(ProveOrder(terms, index_order(lv.index, 0)));
      }
      if (lv.index != nullptr) return false;
      if (take(ProveOrder(terms, rowid_order))) {
        lv.rowid_order = true;
        return true;
      }
      if (lv.access != Access::kScan || lv.not_indexed) return false;
      // A full scan may walk an index instead, when its order is the one asked for.
      for (const catalog::IndexInfo* ix : t->indexes) {
        if (ix->partial || !ix->binary_collation) continue;
        if (take(ProveOrder(terms, index_order(ix, 0)))) {
          lv.index = ix;
          return true;
        }
      }
      return false;
    case Access::kIndex:
      return take(ProveOrder(terms, index_order(lv.index, lv.eq.size())));
    default:
      return false;
  }
}

void Planner::FinishCovering(Core* core) {
  for (Level& lv : core->levels) {
    if (lv.table == nullptr) continue;
    if (lv.access != Access::kIndex && lv.access != Access::kScan) continue;
    const auto& used = used_[static_cast<size_t>(lv.src)];
    auto covers = [&](const catalog::IndexInfo* ix) {
      for (size_t slot = 1; slot < used.size(); ++slot) {
        if (!used[slot]) continue;
        const int col = static_cast<int>(slot) - 1;
        if (std::find(ix->columns.begin(), ix->columns.end(), col) == ix->columns.end()) {
          return false;
        }
      }
      return true;
    };
    if (lv.access == Access::kScan && lv.index == nullptr && !lv.rowid_order && !lv.not_indexed) {
      // A narrower index holds every column the query reads: scan it instead.
      const catalog::IndexInfo* pick = nullptr;
      for (const catalog::IndexInfo* ix : lv.table->indexes) {
        // Only a clearly narrower index pays (SQLite compares estimated row sizes).
        if (ix->partial || (ix->columns.size() + 1) * 2 > lv.table->columns.size() || !covers(ix)) {
          continue;
        }
        if (pick == nullptr || ix->columns.size() < pick->columns.size()) pick = ix;
      }
      if (pick == nullptr) continue;
      lv.index = pick;
    }
    if (lv.index == nullptr || !covers(lv.index)) continue;
    lv.covering = true;
    // Column references now read the index record: map table positions to key positions.
    for (Node& n : prog_->nodes) {
      if (n.op != Op::kColumn || n.src != lv.src || n.col < 0) continue;
      const auto it = std::find(lv.index->columns.begin(), lv.index->columns.end(), n.col);
      n.col = static_cast<int32_t>(it - lv.index->columns.begin());
    }
  }
}

}  // namespace engine::plan
