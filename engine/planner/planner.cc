#include "engine/planner/planner.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "engine/func/scalar_functions.h"
#include "engine/sql/parser.h"

namespace engine::plan {

using catalog::EqualsNoCase;

namespace {

bool IsRowidName(std::string_view n) {
  return EqualsNoCase(n, "rowid") || EqualsNoCase(n, "oid") || EqualsNoCase(n, "_rowid_");
}

bool IsComparison(sql::BinaryOp op) {
  switch (op) {
    case sql::BinaryOp::kEq:
    case sql::BinaryOp::kNe:
    case sql::BinaryOp::kIs:
    case sql::BinaryOp::kIsNot:
    case sql::BinaryOp::kLt:
    case sql::BinaryOp::kLe:
    case sql::BinaryOp::kGt:
    case sql::BinaryOp::kGe:
      return true;
    default:
      return false;
  }
}

using func::ComparisonAffinity;

}  // namespace

Planner::Planner(const catalog::Schema& schema, Program* program)
    : schema_(schema), prog_(program) {}

int32_t Planner::AddNode(const Node& n) {
  // As the parser's expressions: one allocation for a small plan.
  if (prog_->nodes.capacity() == 0) prog_->nodes.reserve(16);
  prog_->nodes.push_back(n);
  return static_cast<int32_t>(prog_->nodes.size() - 1);
}

int Planner::NewSource() {
  used_.emplace_back();
  return prog_->source_count++;
}

void Planner::MarkUsed(int src, int col) {
  auto& u = used_[static_cast<size_t>(src)];
  const size_t slot = col < 0 ? 0 : static_cast<size_t>(col) + 1;
  if (u.size() <= slot) u.resize(slot + 1, false);
  u[slot] = true;
}

Status Planner::AddValue(const Value& v, Node* n) {
  if (v.is_bytes()) {
    prog_->strings.push_back(std::make_unique<std::string>(v.data(), v.size()));
    const std::string& s = *prog_->strings.back();
    n->k = v.type() == ValueType::kText ? Value::Text(s.data(), s.size())
                                        : Value::Blob(s.data(), s.size());
  } else {
    n->k = v;
  }
  return Status::OK();
}

Affinity Planner::ExprAffinity(int32_t id) const {
  const Node& n = prog_->node(id);
  switch (n.op) {
    case Op::kColumn:
    case Op::kGroupCol:
    case Op::kCast:
      return n.aff;
    case Op::kScalar: {
      const Select& s = prog_->selects[static_cast<size_t>(n.src)];
      return s.affinities.empty() ? Affinity::kNone : s.affinities[0];
    }
    default:
      return Affinity::kNone;
  }
}

bool Planner::HasExplicitCollation(int32_t id) const {
  const Node& n = prog_->node(id);
  if (n.flags & Node::kCollExplicit) return true;
  for (int32_t child : {n.a, n.b, n.c}) {
    if (child >= 0 && HasExplicitCollation(child)) return true;
  }
  for (uint32_t i = 0; i < n.nlist; ++i) {
    if (HasExplicitCollation(prog_->lists[n.list + i])) return true;
  }
  return false;
}

CollationOf Planner::ExprCollationOf(int32_t id) const {
  auto of = [](const Node& n) {
    if (n.flags & Node::kCollNoCase) return func::Collation::kNoCase;
    if (n.flags & Node::kCollRtrim) return func::Collation::kRtrim;
    return func::Collation::kBinary;
  };
  while (id >= 0) {
    const Node& n = prog_->node(id);
    if (n.flags & Node::kCollExplicit) return {of(n), CollationOf::Source::kExplicit};
    // A column always has one, BINARY unless defined otherwise; the rowid
    // has none.
    if (n.op == Op::kColumn || n.op == Op::kGroupCol) {
      if (n.flags & Node::kRowid) return {};
      return {of(n), CollationOf::Source::kColumn};
    }
    if (n.op == Op::kCast ||
        (n.op == Op::kUnary && static_cast<sql::UnaryOp>(n.sub) == sql::UnaryOp::kPlus)) {
      id = n.a;
      continue;
    }
    // An operator has the first explicit COLLATE among its operands, left
    // to right, or none.
    int32_t next = -1;
    for (int32_t child : {n.a, n.b, n.c}) {
      if (next < 0 && child >= 0 && HasExplicitCollation(child)) next = child;
    }
    for (uint32_t i = 0; i < n.nlist && next < 0; ++i) {
      if (HasExplicitCollation(prog_->lists[n.list + i])) next = prog_->lists[n.list + i];
    }
    id = next;
  }
  return {};
}

func::Collation Planner::ExprCollation(int32_t id) const { return ExprCollationOf(id).coll; }

bool Planner::IsConstant(int32_t id) const {
  const Node& n = prog_->node(id);
  switch (n.op) {
    case Op::kColumn:
    case Op::kGroupCol:
    case Op::kAggRef:
    case Op::kInSelect:
    case Op::kExists:
    case Op::kScalar:
      return false;
    default:
      break;
  }
  for (int32_t child : {n.a, n.b, n.c}) {
    if (child >= 0 && !IsConstant(child)) return false;
  }
  for (uint32_t i = 0; i < n.nlist; ++i) {
    if (!IsConstant(prog_->lists[n.list + i])) return false;
  }
  return true;
}

func::Collation PickCompareCollation(const CollationOf& left, const CollationOf& right) {
  if (left.source == CollationOf::Source::kExplicit) return left.coll;
  if (right.source == CollationOf::Source::kExplicit) return right.coll;
  if (left.source != CollationOf::Source::kNone) return left.coll;
  return right.coll;
}

func::Collation Planner::ComparisonCollation(int32_t left, int32_t right) const {
  return PickCompareCollation(ExprCollationOf(left), ExprCollationOf(right));
}

func::Collation Planner::FirstArgumentCollation(const int32_t* args, size_t n) const {
  for (size_t i = 0; i < n; ++i) {
    const CollationOf c = ExprCollationOf(args[i]);
    if (c.source != CollationOf::Source::kNone) return c.coll;
  }
  return func::Collation::kBinary;
}

void Planner::SplitAnd(const sql::Ast& ast, sql::ExprId id, std::vector<sql::ExprId>* out) {
  if (id == sql::kNoExpr) return;
  const sql::Expr& e = ast.expr(id);
  if (e.kind == sql::ExprKind::kBinary && e.binary_op() == sql::BinaryOp::kAnd) {
    SplitAnd(ast, e.left, out);
    SplitAnd(ast, e.right, out);
    return;
  }
  out->push_back(id);
}

void Planner::SetTriggerRow(const catalog::TableInfo* table, bool has_old, bool has_new) {
  trigger_table_ = table;
  trigger_old_ = has_old;
  trigger_new_ = has_new;
}

Result<int32_t> Planner::CompileExpr(const sql::Ast& ast, sql::ExprId id, const Scope* scope) {
  return Compile(ast, id, scope);
}

Result<int32_t> Planner::CompileColumn(const sql::Ast& ast, const sql::Expr& e,
                                       const Scope* scope) {
  const std::string_view name = ast.str(e.u.ids.a);
  const std::string_view qual = ast.str(e.u.ids.b);
  for (const Scope* s = scope; s != nullptr; s = s->parent) {
    const ScopeItem* found = nullptr;
    int col = -2;  // -1: rowid
    for (const ScopeItem& item : s->items) {
      if (!qual.empty() && !EqualsNoCase(item.name, qual)) continue;
      int c = -2;
      if (item.table != nullptr) {
        c = item.table->FindColumn(name);
        if (c < 0) {
          c = IsRowidName(name) ? -1 : -2;
        } else if (c == item.table->rowid_alias) {
          c = -1;
        }
      } else {
        for (size_t i = 0; i < item.columns.size(); ++i) {
          if (EqualsNoCase(item.columns[i], name)) {
            c = static_cast<int>(i);
            break;
          }
        }
      }
      if (c == -2) continue;
      if (qual.empty()) {
        bool hidden = false;
        for (const auto& h : item.using_hidden) hidden |= EqualsNoCase(h, name);
        if (hidden) continue;
      }
      if (found != nullptr) {
        return Status::SqlError(
                   "ambiguous column name: " +
                   (qual.empty() ? std::string(name) : std::string(qual) + "." + std::string(name)))
            .WithOffset(ast.offset_of(e));
      }
      found = &item;
      col = c;
    }
    if (found == nullptr) continue;
    // Every query between the reference and its source is correlated.
    for (const Scope* t = scope; t != s; t = t->parent) {
      if (t->select != nullptr) {
        t->select->correlated = true;
        t->select->outer_refs.push_back(found->src);
      }
    }
    Node n;
    n.op = Op::kColumn;
    n.src = found->src;
    n.col = col;
    if (found->table != nullptr) {
      n.aff =
          col < 0 ? Affinity::kInteger : found->table->columns[static_cast<size_t>(col)].affinity;
      if (col < 0) n.flags |= Node::kRowid;
      if (n.aff == Affinity::kReal) n.flags |= Node::kRealColumn;
      if (col >= 0)
        n.flags |= CollationFlags(found->table->columns[static_cast<size_t>(col)].collation);
    } else if (col >= 0 && static_cast<size_t>(col) < found->affinities.size()) {
      n.aff = found->affinities[static_cast<size_t>(col)];
      if (static_cast<size_t>(col) < found->collations.size()) {
        n.flags |= CollationFlags(found->collations[static_cast<size_t>(col)]);
      }
    }
    MarkUsed(found->src, col);
    int32_t id = AddNode(n);
    if (s->agg_core != nullptr && s != suppress_capture_) {
      auto& caps = s->agg_core->captures;
      for (size_t i = 0; i < caps.size(); ++i) {
        const Node& c = prog_->node(caps[i]);
        if (c.src == n.src && c.col == n.col) {
          Node g;
          g.op = Op::kGroupCol;
          g.col = static_cast<int32_t>(i);
          g.aff = n.aff;
          g.flags = n.flags;
          return AddNode(g);
        }
      }
      caps.push_back(id);
      Node g;
      g.op = Op::kGroupCol;
      g.col = static_cast<int32_t>(caps.size() - 1);
      g.aff = n.aff;
      g.flags = n.flags;
      return AddNode(g);
    }
    return id;
  }
  if (trigger_table_ != nullptr && !qual.empty() &&
      ((trigger_new_ && EqualsNoCase(qual, "new")) ||
       (trigger_old_ && EqualsNoCase(qual, "old")))) {
    const catalog::TableInfo& t = *trigger_table_;
    int c = t.FindColumn(name);
    if (c < 0 && IsRowidName(name)) c = static_cast<int>(t.columns.size());
    if (c >= 0) {
      Node n;
      n.op = Op::kParam;
      const int base = EqualsNoCase(qual, "new") ? static_cast<int>(t.columns.size()) + 1 : 0;
      n.col = base + c;
      // No affinity: sqlite3 compares NEW.x / OLD.x as plain values
      // (NEW.c = '7' is false for an INTEGER c holding 7).
      return AddNode(n);
    }
  }
  if (e.has(sql::Expr::kDoubleQuoted) && qual.empty()) {
    Node n;
    ENGINE_RETURN_IF_ERROR(AddValue(Value::Text(name), &n));
    return AddNode(n);
  }
  // TRUE and FALSE are 1 and 0 where no column has the name (sqlite3's
  // sqlite3ExprIdToTrueFalse, SQLite 3.23 on).
  if (qual.empty() && (EqualsNoCase(name, "true") || EqualsNoCase(name, "false"))) {
    Node n;
    ENGINE_RETURN_IF_ERROR(AddValue(Value::Integer(EqualsNoCase(name, "true") ? 1 : 0), &n));
    return AddNode(n);
  }
  return Status::SqlError("no such column: " + (qual.empty()
                                                    ? std::string(name)
                                                    : std::string(qual) + "." + std::string(name)))
      .WithOffset(ast.offset_of(e));
}

bool Planner::IsAggregateCall(const sql::Ast& ast, sql::ExprId id) const {
  const sql::Expr& e = ast.expr(id);
  if (e.kind != sql::ExprKind::kFunction || e.has(sql::Expr::kOver)) return false;
  return func::FindAggregate(ast.str(e.u.ids.a),
                             e.has(sql::Expr::kStar) ? 0 : static_cast<int>(e.list_size),
                             e.has(sql::Expr::kStar))
      .has_value();
}

bool Planner::HasAggregate(const sql::Ast& ast, sql::ExprId id) const {
  if (id == sql::kNoExpr) return false;
  const sql::Expr& e = ast.expr(id);
  if (IsAggregateCall(ast, id)) return true;
  switch (e.kind) {
    case sql::ExprKind::kSubquery:
    case sql::ExprKind::kExists:
      return false;
    case sql::ExprKind::kInSelect:
      return HasAggregate(ast, e.left);
    default:
      break;
  }
  if (HasAggregate(ast, e.left) || HasAggregate(ast, e.right) || HasAggregate(ast, e.third)) {
    return true;
  }
  if (e.kind == sql::ExprKind::kFunction && e.has(sql::Expr::kOver)) {
    // sum(x) OVER (ORDER BY count(*)): the window's terms count too.
    const sql::WindowDef& w = ast.windows[e.u.ids.b];
    for (sql::ExprId p : w.partition_by) {
      if (HasAggregate(ast, p)) return true;
    }
    for (const sql::OrderingTerm& t : w.order_by) {
      if (HasAggregate(ast, t.expr)) return true;
    }
  }
  if (e.kind == sql::ExprKind::kInList || e.kind == sql::ExprKind::kCase ||
      e.kind == sql::ExprKind::kFunction) {
    const sql::ExprId* l = ast.list(e);
    for (uint32_t i = 0; i < e.list_size; ++i) {
      if (HasAggregate(ast, l[i])) return true;
    }
  }
  return false;
}

Result<int32_t> Planner::CompileFunction(const sql::Ast& ast, const sql::Expr& e,
                                         const Scope* scope) {
  const std::string name(ast.str(e.u.ids.a));
  const int nargs = e.has(sql::Expr::kStar) ? 0 : static_cast<int>(e.list_size);
  const sql::ExprId* args = ast.list(e);
  if (e.has(sql::Expr::kOver)) {
    // Window functions belong to result columns and ORDER BY only, which
    // CompileInWindowStage compiles (planner_window.cc).
    return Status::SqlError("misuse of window function " + name + "()")
        .WithOffset(ast.offset_of(e));
  }
  const auto agg = func::FindAggregate(name, nargs, e.has(sql::Expr::kStar));
  if (agg.has_value()) {
    const Scope* agg_scope = scope;
    if (agg_scope == nullptr || agg_scope->agg_core == nullptr || suppress_capture_ != nullptr) {
      return Status::SqlError("misuse of aggregate function " + name + "()")
          .WithOffset(ast.offset_of(e));
    }
    AggSpec spec;
    spec.kind = *agg;
    spec.distinct = e.has(sql::Expr::kDistinct);
    if (spec.distinct && nargs != 1) {
      return Status::SqlError("DISTINCT aggregates must have exactly one argument");
    }
    suppress_capture_ = agg_scope;
    Result<int32_t> a = nargs > 0 ? Compile(ast, args[0], scope) : Result<int32_t>(-1);
    Result<int32_t> b = nargs > 1 ? Compile(ast, args[1], scope) : Result<int32_t>(-1);
    Result<int32_t> filter =
        e.third != sql::kNoExpr ? Compile(ast, e.third, scope) : Result<int32_t>(-1);
    suppress_capture_ = nullptr;
    if (!a.ok()) return a.status();
    if (!b.ok()) return b.status();
    if (!filter.ok()) return filter.status();
    if (*filter >= 0) {
      // agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END): every
      // aggregate skips NULLs, so the rows c rejects count nowhere, and the
      // aggregate loop needs no test of its own.
      if (spec.kind == func::AggregateKind::kCountStar) {
        spec.kind = func::AggregateKind::kCount;
        Node one;
        one.k = Value::Integer(1);
        a = AddNode(one);
      }
      Node c;
      c.op = Op::kCase;
      c.list = static_cast<uint32_t>(prog_->lists.size());
      c.nlist = 2;
      prog_->lists.push_back(*filter);
      prog_->lists.push_back(*a);
      a = AddNode(c);
    }
    spec.arg = *a;
    spec.arg2 = *b;
    // min()/max() and DISTINCT compare under the argument's collation.
    if (spec.arg >= 0) spec.coll = ExprCollation(spec.arg);
    Core* core = agg_scope->agg_core;
    core->aggs.push_back(spec);
    Node n;
    n.op = Op::kAggRef;
    n.col = static_cast<int32_t>(core->aggs.size() - 1);
    return AddNode(n);
  }
  if (e.third != sql::kNoExpr) {
    return Status::SqlError("FILTER may not be used with non-aggregate " + name + "()")
        .WithOffset(ast.offset_of(e));
  }
  if (e.has(sql::Expr::kStar)) {
    return Status::SqlError("wrong number of arguments to function " + name + "()")
        .WithOffset(ast.offset_of(e));
  }
  if (e.has(sql::Expr::kDistinct)) {
    return Status::SqlError("DISTINCT aggregates must have exactly one argument");
  }
  const func::ScalarFunction* fn = nullptr;
  if (Status st = func::LookupScalarFunction(name, nargs, &fn); !st.ok()) {
    return std::move(st).WithOffset(ast.offset_of(e));
  }
  const int id = static_cast<int>(fn - func::ScalarFunctionsBegin());
  std::vector<int32_t> compiled;
  for (int i = 0; i < nargs; ++i) {
    ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, args[i], scope));
    compiled.push_back(c);
  }
  Node n;
  n.op = Op::kFunction;
  n.col = id;
  // min(), max() and nullif() compare under their first argument's
  // collation that has one (SQLite's SQLITE_FUNC_NEEDCOLL).
  if (fn->collated != nullptr) {
    n.flags |= CompareFlags(FirstArgumentCollation(compiled.data(), compiled.size()));
  }
  n.list = static_cast<uint32_t>(prog_->lists.size());
  n.nlist = static_cast<uint32_t>(compiled.size());
  prog_->lists.insert(prog_->lists.end(), compiled.begin(), compiled.end());
  return AddNode(n);
}

Result<int32_t> Planner::CompileSubquery(const sql::Ast& ast, const sql::Expr& e,
                                         const Scope* scope) {
  if (in_check_) {
    // Where sqlite3 points: the first node down the left operands that
    // has a position (none for a bare subquery).
    const sql::Expr* at = &e;
    while (ast.offset_of(*at) < 0 && at->left != sql::kNoExpr) at = &ast.expr(at->left);
    return Status::SqlError("subqueries prohibited in CHECK constraints")
        .WithOffset(ast.offset_of(*at));
  }
  // A subquery sees the enclosing scope but never captures group values.
  const Scope* saved = suppress_capture_;
  suppress_capture_ = nullptr;
  Result<int> planned = PlanSelect(ast, e.u.select, scope);
  suppress_capture_ = saved;
  if (!planned.ok()) return planned.status();
  const int sel = *planned;
  Node n;
  n.src = sel;
  if (e.kind == sql::ExprKind::kExists) {
    n.op = Op::kExists;
  } else if (e.kind == sql::ExprKind::kSubquery) {
    n.op = Op::kScalar;
    if (prog_->selects[static_cast<size_t>(sel)].visible != 1) {
      return Status::SqlError("sub-select returns " +
                              std::to_string(prog_->selects[static_cast<size_t>(sel)].visible) +
                              " columns - expected 1");
    }
  } else {
    n.op = Op::kInSelect;
    if (prog_->selects[static_cast<size_t>(sel)].visible != 1) {
      return Status::SqlError("sub-select returns " +
                              std::to_string(prog_->selects[static_cast<size_t>(sel)].visible) +
                              " columns - expected 1");
    }
    ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
    if (e.has(sql::Expr::kNegated)) n.flags |= Node::kNegated;
    const Select& s = prog_->selects[static_cast<size_t>(sel)];
    n.aff = ComparisonAffinity(ExprAffinity(n.a),
                               s.affinities.empty() ? Affinity::kNone : s.affinities[0]);
    // The probe compares under the pair's collation, the subquery's column
    // standing in as the right operand.
    n.flags |= CompareFlags(PickCompareCollation(
        ExprCollationOf(n.a), s.collations.empty() ? CollationOf{} : s.collations[0]));
  }
  return AddNode(n);
}

Result<int32_t> Planner::Compile(const sql::Ast& ast, sql::ExprId id, const Scope* scope) {
  if (window_ != nullptr && scope != nullptr) return CompileInWindowStage(ast, id, scope);
  return CompileNode(ast, id, scope);
}

Result<int32_t> Planner::CompileNode(const sql::Ast& ast, sql::ExprId id, const Scope* scope) {
  const sql::Expr& e = ast.expr(id);
  Node n;
  switch (e.kind) {
    case sql::ExprKind::kNull:
      return AddNode(n);
    case sql::ExprKind::kInteger:
      n.k = Value::Integer(e.u.integer);
      return AddNode(n);
    case sql::ExprKind::kReal:
      n.k = Value::Real(e.u.real);
      return AddNode(n);
    case sql::ExprKind::kString:
      ENGINE_RETURN_IF_ERROR(AddValue(Value::Text(ast.str(e.u.ids.a)), &n));
      return AddNode(n);
    case sql::ExprKind::kBlob: {
      std::string_view b = ast.str(e.u.ids.a);
      ENGINE_RETURN_IF_ERROR(AddValue(Value::Blob(b.data(), b.size()), &n));
      return AddNode(n);
    }
    case sql::ExprKind::kParameter:
      if (in_check_) {
        return Status::SqlError("parameters prohibited in CHECK constraints")
            .WithOffset(ast.offset_of(e));
      }
      n.op = Op::kParam;
      n.col = static_cast<int32_t>(e.u.ids.b) - 1;
      prog_->parameter_count = std::max(prog_->parameter_count, static_cast<int>(e.u.ids.b));
      return AddNode(n);
    case sql::ExprKind::kColumn:
      return CompileColumn(ast, e, scope);
    case sql::ExprKind::kUnary: {
      n.op = Op::kUnary;
      n.sub = e.op;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      return AddNode(n);
    }
    case sql::ExprKind::kBinary: {
      n.op = Op::kBinary;
      n.sub = e.op;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      ENGINE_ASSIGN_OR_RETURN(n.b, Compile(ast, e.right, scope));
      if (IsComparison(e.binary_op())) {
        n.aff = ComparisonAffinity(ExprAffinity(n.a), ExprAffinity(n.b));
        n.flags |= CompareFlags(ComparisonCollation(n.a, n.b));
      }
      return AddNode(n);
    }
    case sql::ExprKind::kIsNull: {
      n.op = Op::kIsNull;
      n.flags = e.has(sql::Expr::kNegated) ? Node::kNegated : 0;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      return AddNode(n);
    }
    case sql::ExprKind::kBetween: {
      n.op = Op::kBetween;
      n.flags = e.has(sql::Expr::kNegated) ? Node::kNegated : 0;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      ENGINE_ASSIGN_OR_RETURN(n.b, Compile(ast, e.right, scope));
      ENGINE_ASSIGN_OR_RETURN(n.c, Compile(ast, e.third, scope));
      n.aff = ComparisonAffinity(ExprAffinity(n.a), ExprAffinity(n.b));
      // a >= b and a <= c, each under its own pair's collation.
      n.flags |= CompareFlags(ComparisonCollation(n.a, n.b));
      n.sub = static_cast<uint8_t>(ComparisonCollation(n.a, n.c));
      return AddNode(n);
    }
    case sql::ExprKind::kLike: {
      if (e.like_op() == sql::LikeOp::kMatch || e.like_op() == sql::LikeOp::kRegexp) {
        return Status::SqlError(std::string("no such function: ") +
                                (e.like_op() == sql::LikeOp::kMatch ? "MATCH" : "REGEXP"));
      }
      n.op = Op::kLike;
      n.sub = e.op;
      n.flags = e.has(sql::Expr::kNegated) ? Node::kNegated : 0;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      ENGINE_ASSIGN_OR_RETURN(n.b, Compile(ast, e.right, scope));
      if (e.third != sql::kNoExpr) {
        ENGINE_ASSIGN_OR_RETURN(n.c, Compile(ast, e.third, scope));
      }
      return AddNode(n);
    }
    case sql::ExprKind::kInList: {
      n.op = Op::kInList;
      n.flags = e.has(sql::Expr::kNegated) ? Node::kNegated : 0;
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      std::vector<int32_t> items;
      const sql::ExprId* l = ast.list(e);
      for (uint32_t i = 0; i < e.list_size; ++i) {
        ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, l[i], scope));
        items.push_back(c);
      }
      n.aff = ExprAffinity(n.a);
      // IN compares under the left operand's collation alone (SQLite's
      // sqlite3ExprCodeIN): a COLLATE on a list item does not count. But
      // SQLite's parser turns `x IN (constant)` into `x = constant`, whose
      // collation is the pair's.
      n.flags |= CompareFlags(items.size() == 1 && IsConstant(items[0])
                                  ? ComparisonCollation(n.a, items[0])
                                  : ExprCollation(n.a));
      n.list = static_cast<uint32_t>(prog_->lists.size());
      n.nlist = static_cast<uint32_t>(items.size());
      prog_->lists.insert(prog_->lists.end(), items.begin(), items.end());
      return AddNode(n);
    }
    case sql::ExprKind::kInSelect:
    case sql::ExprKind::kSubquery:
    case sql::ExprKind::kExists:
      return CompileSubquery(ast, e, scope);
    case sql::ExprKind::kCase: {
      n.op = Op::kCase;
      if (e.left != sql::kNoExpr) {
        ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      }
      if (e.right != sql::kNoExpr) {
        ENGINE_ASSIGN_OR_RETURN(n.b, Compile(ast, e.right, scope));
      }
      std::vector<int32_t> items;
      const sql::ExprId* l = ast.list(e);
      for (uint32_t i = 0; i < e.list_size; ++i) {
        ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, l[i], scope));
        items.push_back(c);
      }
      if (n.a >= 0) {
        // CASE x WHEN w compares as x = w: each WHEN under its pair's
        // collation, which differ only when x has none of its own.
        std::vector<func::Collation> colls;
        for (size_t i = 0; i + 1 < items.size(); i += 2) {
          colls.push_back(ComparisonCollation(n.a, items[i]));
        }
        if (std::adjacent_find(colls.begin(), colls.end(), std::not_equal_to<>()) != colls.end()) {
          n.col = static_cast<int32_t>(prog_->case_collations.size());
          prog_->case_collations.push_back(std::move(colls));
        } else if (!colls.empty()) {
          n.flags |= CompareFlags(colls[0]);
        }
      }
      n.list = static_cast<uint32_t>(prog_->lists.size());
      n.nlist = static_cast<uint32_t>(items.size());
      prog_->lists.insert(prog_->lists.end(), items.begin(), items.end());
      return AddNode(n);
    }
    case sql::ExprKind::kCast: {
      n.op = Op::kCast;
      n.aff = catalog::AffinityOfType(ast.str(e.u.ids.a));
      ENGINE_ASSIGN_OR_RETURN(n.a, Compile(ast, e.left, scope));
      return AddNode(n);
    }
    case sql::ExprKind::kCollate: {
      const std::string_view name = ast.str(e.u.ids.a);
      const std::optional<func::Collation> coll = func::CollationByName(name);
      if (!coll) return Status::SqlError("no such collation sequence: " + std::string(name));
      // No node of its own: the operand carries the collation (the outermost
      // COLLATE wins) into the comparisons, sorts and sets that use it.
      ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, e.left, scope));
      Node& operand = prog_->nodes[static_cast<size_t>(c)];
      operand.flags = static_cast<uint8_t>((operand.flags & ~Node::kCollMask) |
                                           CollationFlags(*coll) | Node::kCollExplicit);
      return c;
    }
    case sql::ExprKind::kFunction:
      return CompileFunction(ast, e, scope);
    case sql::ExprKind::kRaise: {
      if (trigger_table_ == nullptr) {
        return Status::SqlError("RAISE() may only be used within a trigger-program");
      }
      n.op = Op::kRaise;
      n.sub = e.op;
      ENGINE_RETURN_IF_ERROR(AddValue(Value::Text(ast.str(e.u.ids.a)), &n));
      return AddNode(n);
    }
  }
  return Status::SqlError("unsupported expression");
}

}  // namespace engine::plan
