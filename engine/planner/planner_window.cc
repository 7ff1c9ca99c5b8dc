// Window functions in the planner: a core whose result columns or ORDER BY
// call one is split in two (window_plan.h). While those expressions are
// compiled, every column reference and aggregate of the core's own scope is
// compiled for the inner row and replaced by a read of that row's column;
// each window call becomes a read of the column the window stage appends.
#include "engine/planner/planner_window.h"

#include <algorithm>

#include "engine/func/scalar_functions.h"
#include "engine/func/window_functions.h"

namespace engine::plan {

using catalog::EqualsNoCase;

namespace {

// Whether two parse trees are the same expression (SQLite's
// sqlite3ExprCompare, enough to tell windows written alike).
bool SameExpr(const sql::Ast& ast, sql::ExprId a, sql::ExprId b) {
  if (a == b) return true;
  if (a == sql::kNoExpr || b == sql::kNoExpr) return false;
  const sql::Expr& x = ast.expr(a);
  const sql::Expr& y = ast.expr(b);
  if (x.kind != y.kind || x.op != y.op || x.flags != y.flags || x.list_size != y.list_size) {
    return false;
  }
  switch (x.kind) {
    case sql::ExprKind::kInteger:
      if (x.u.integer != y.u.integer) return false;
      break;
    case sql::ExprKind::kReal:
      if (!(x.u.real == y.u.real)) return false;
      break;
    case sql::ExprKind::kString:
    case sql::ExprKind::kBlob:
      if (ast.str(x.u.ids.a) != ast.str(y.u.ids.a)) return false;
      break;
    case sql::ExprKind::kColumn:
    case sql::ExprKind::kCast:
    case sql::ExprKind::kCollate:
    case sql::ExprKind::kFunction:
      if (!EqualsNoCase(ast.str(x.u.ids.a), ast.str(y.u.ids.a))) return false;
      if (x.kind == sql::ExprKind::kColumn &&
          !EqualsNoCase(ast.str(x.u.ids.b), ast.str(y.u.ids.b))) {
        return false;
      }
      if (x.kind == sql::ExprKind::kFunction && x.has(sql::Expr::kOver)) return false;
      break;
    case sql::ExprKind::kParameter:
      if (x.u.ids.b != y.u.ids.b) return false;
      break;
    case sql::ExprKind::kSubquery:
    case sql::ExprKind::kExists:
    case sql::ExprKind::kInSelect:
      if (x.u.select != y.u.select) return false;
      break;
    default:
      break;
  }
  if (!SameExpr(ast, x.left, y.left) || !SameExpr(ast, x.right, y.right) ||
      !SameExpr(ast, x.third, y.third)) {
    return false;
  }
  for (uint32_t i = 0; i < x.list_size; ++i) {
    if (!SameExpr(ast, ast.list(x)[i], ast.list(y)[i])) return false;
  }
  return true;
}

bool SameFrame(const sql::Ast& ast, const sql::WindowDef* a, const sql::WindowDef* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a->unit == b->unit && a->start == b->start && a->end == b->end &&
         a->exclude == b->exclude && a->has_exclude == b->has_exclude &&
         SameExpr(ast, a->start_expr, b->start_expr) && SameExpr(ast, a->end_expr, b->end_expr);
}

bool SameWindow(const sql::Ast& ast, const ResolvedWindow& a, const ResolvedWindow& b) {
  if (a.partition.size() != b.partition.size() || a.order.size() != b.order.size()) return false;
  for (size_t i = 0; i < a.partition.size(); ++i) {
    if (!SameExpr(ast, a.partition[i], b.partition[i])) return false;
  }
  for (size_t i = 0; i < a.order.size(); ++i) {
    if (a.order[i].order != b.order[i].order || a.order[i].nulls != b.order[i].nulls ||
        !SameExpr(ast, a.order[i].expr, b.order[i].expr)) {
      return false;
    }
  }
  return SameFrame(ast, a.frame, b.frame);
}

// Whether a frame offset is what SQLite keeps of one: literals, parameters
// and operators on them. Anything else (a column, a function call, a
// subquery) it replaces by NULL, which then fails as an offset.
bool IsConstantOffset(const sql::Ast& ast, sql::ExprId id) {
  if (id == sql::kNoExpr) return true;
  const sql::Expr& e = ast.expr(id);
  switch (e.kind) {
    case sql::ExprKind::kColumn:
    case sql::ExprKind::kFunction:
    case sql::ExprKind::kSubquery:
    case sql::ExprKind::kExists:
    case sql::ExprKind::kInSelect:
      return false;
    default:
      break;
  }
  if (!IsConstantOffset(ast, e.left) || !IsConstantOffset(ast, e.right) ||
      !IsConstantOffset(ast, e.third)) {
    return false;
  }
  for (uint32_t i = 0; i < e.list_size; ++i) {
    if (!IsConstantOffset(ast, ast.list(e)[i])) return false;
  }
  return true;
}

// The frame errors SQLite finds while resolving names (even for calls that
// then read no frame); a frame that ends before it starts the parser refuses.
Status CheckFrame(const ResolvedWindow& rw) {
  if (rw.frame == nullptr) return Status::OK();
  const sql::WindowDef& f = *rw.frame;
  const bool offsets = f.start == sql::FrameBound::kPreceding ||
                       f.start == sql::FrameBound::kFollowing ||
                       f.end == sql::FrameBound::kPreceding || f.end == sql::FrameBound::kFollowing;
  if (f.unit == sql::FrameUnit::kRange && offsets && rw.order.size() != 1) {
    return Status::SqlError(
        "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression");
  }
  return Status::OK();
}

}  // namespace

bool Planner::HasWindowCall(const sql::Ast& ast, sql::ExprId id) {
  if (id == sql::kNoExpr) return false;
  const sql::Expr& e = ast.expr(id);
  if (e.kind == sql::ExprKind::kFunction && e.has(sql::Expr::kOver)) return true;
  if (e.kind == sql::ExprKind::kSubquery || e.kind == sql::ExprKind::kExists) return false;
  if (HasWindowCall(ast, e.left) || HasWindowCall(ast, e.right)) return true;
  if (e.kind != sql::ExprKind::kInSelect && HasWindowCall(ast, e.third)) return true;
  if (e.kind == sql::ExprKind::kInList || e.kind == sql::ExprKind::kCase ||
      e.kind == sql::ExprKind::kFunction) {
    for (uint32_t i = 0; i < e.list_size; ++i) {
      if (HasWindowCall(ast, ast.list(e)[i])) return true;
    }
  }
  return false;
}

bool Planner::WindowClauseHasAggregate(const sql::Ast& ast, const sql::SelectCore& sc) const {
  for (uint32_t w : sc.windows) {
    const sql::WindowDef& def = ast.windows[w];
    for (sql::ExprId p : def.partition_by) {
      if (HasAggregate(ast, p)) return true;
    }
    for (const sql::OrderingTerm& t : def.order_by) {
      if (HasAggregate(ast, t.expr)) return true;
    }
  }
  return false;
}

bool Planner::CoreHasWindowCall(const sql::Ast& ast, const sql::SelectCore& sc,
                                const sql::Select& sel, bool first) {
  if (sc.is_values()) return false;
  for (const sql::ResultColumn& rc : sc.columns) {
    if (rc.kind == sql::ResultColumn::Kind::kExpr && HasWindowCall(ast, rc.expr)) return true;
  }
  if (first && sel.cores.size() == 1) {
    for (const sql::OrderingTerm& t : sel.order_by) {
      if (HasWindowCall(ast, t.expr)) return true;
    }
  }
  return false;
}

std::unique_ptr<Planner::WindowBinding> Planner::NewWindowBinding(const Scope* scope,
                                                                  const sql::SelectCore& sc) {
  auto wb = std::make_unique<WindowBinding>();
  wb->scope = scope;
  wb->core = &sc;
  wb->src = NewSource();
  wb->stage = static_cast<int>(prog_->windows.size());
  prog_->windows.emplace_back();
  return wb;
}

int32_t Planner::InnerRef(int32_t node) {
  WindowBinding* wb = window_;
  wb->inner.push_back(node);
  Node n;
  n.op = Op::kColumn;
  n.src = wb->src;
  n.col = static_cast<int32_t>(wb->inner.size() - 1);
  n.aff = ExprAffinity(node);
  // The collation travels with the value, for ORDER BY and comparisons.
  n.flags = CollationFlags(ExprCollation(node));
  if (HasExplicitCollation(node)) n.flags |= Node::kCollExplicit;
  return AddNode(n);
}

Result<int> Planner::InnerColumn(const sql::Ast& ast, sql::ExprId id, const Scope* scope) {
  WindowBinding* wb = window_;
  window_ = nullptr;  // the inner row's own expressions: compiled as usual
  Result<int32_t> c = Compile(ast, id, scope);
  window_ = wb;
  if (!c.ok()) return c.status();
  wb->inner.push_back(*c);
  return static_cast<int>(wb->inner.size() - 1);
}

Result<int32_t> Planner::CompileInWindowStage(const sql::Ast& ast, sql::ExprId id,
                                              const Scope* scope) {
  if (scope != window_->scope) return CompileNode(ast, id, scope);
  const sql::Expr& e = ast.expr(id);
  if (e.kind == sql::ExprKind::kFunction && e.has(sql::Expr::kOver)) {
    return CompileWindowCall(ast, e, scope);
  }
  // A subtree without window calls is a value of the inner row, so that
  // what it reads (columns, aggregates, correlated subqueries) is read
  // where those rows are made.
  if (HasWindowCall(ast, id)) return CompileNode(ast, id, scope);
  WindowBinding* wb = window_;
  window_ = nullptr;
  Result<int32_t> c = Compile(ast, id, scope);
  window_ = wb;
  if (!c.ok()) return c.status();
  return InnerRef(*c);
}

Status Planner::ResolveWindow(const sql::Ast& ast, const sql::WindowDef& def, size_t limit,
                              bool clause, ResolvedWindow* out) {
  const std::vector<uint32_t>& named = window_->core->windows;
  // The last definition named `name` among the first `below` of the clause.
  auto find = [&](const std::string& name, size_t below) -> int {
    for (size_t i = below; i-- > 0;) {
      if (EqualsNoCase(ast.windows[named[i]].name, name)) return static_cast<int>(i);
    }
    return -1;
  };
  const sql::WindowDef* cur = &def;
  if (def.bare_name) {
    const int i = find(def.base, named.size());
    if (i < 0) return Status::SqlError("no such window: " + def.base);
    cur = &ast.windows[named[static_cast<size_t>(i)]];
    limit = static_cast<size_t>(i);
    clause = true;
  }
  // The chain of bases, each an earlier definition than the one before it
  // (so a loop, however many there are, and no recursion).
  std::vector<const sql::WindowDef*> chain;
  for (;;) {
    chain.push_back(cur);
    if (cur->base.empty()) break;
    const int i = find(cur->base, limit);
    if (i < 0) {
      // SQLite 3.40 ignores a WINDOW definition's base that no earlier
      // definition names; in OVER (...) it is an error.
      if (clause) break;
      return Status::SqlError("no such window: " + cur->base);
    }
    cur = &ast.windows[named[static_cast<size_t>(i)]];
    limit = static_cast<size_t>(i);
    clause = true;
  }
  const sql::WindowDef& root = *chain.back();
  out->partition = root.partition_by;
  out->order = root.order_by;
  out->frame = root.has_frame ? &root : nullptr;
  for (size_t k = chain.size() - 1; k-- > 0;) {
    const sql::WindowDef& d = *chain[k];
    if (!d.partition_by.empty()) {
      return Status::SqlError("cannot override PARTITION clause of window: " + d.base);
    }
    if (!d.order_by.empty() && !out->order.empty()) {
      return Status::SqlError("cannot override ORDER BY clause of window: " + d.base);
    }
    if (out->frame != nullptr) {
      return Status::SqlError("cannot override frame specification of window: " + d.base);
    }
    if (!d.order_by.empty()) out->order = d.order_by;
    out->frame = d.has_frame ? &d : nullptr;
  }
  return Status::OK();
}

Result<int> Planner::WindowSpecFor(const sql::Ast& ast, const ResolvedWindow& rw,
                                   const Scope* scope) {
  WindowBinding* wb = window_;
  WindowStage& stage = prog_->windows[static_cast<size_t>(wb->stage)];
  for (size_t i = 0; i < wb->specs.size(); ++i) {
    if (SameWindow(ast, wb->specs[i], rw)) return static_cast<int>(i);
  }
  WindowSpec spec;
  if (rw.frame != nullptr) {
    const sql::WindowDef& f = *rw.frame;
    spec.unit = f.unit;
    spec.start = f.start;
    spec.end = f.end;
    spec.exclude = f.exclude;
    spec.row_by_row = f.has_exclude;
    // Offsets are constants: they see no column of the query.
    for (auto [expr, node] :
         {std::pair{f.start_expr, &spec.start_expr}, std::pair{f.end_expr, &spec.end_expr}}) {
      if (expr == sql::kNoExpr) continue;
      if (IsConstantOffset(ast, expr)) {
        ENGINE_ASSIGN_OR_RETURN(*node, Compile(ast, expr, nullptr));
      } else {
        *node = AddNode(Node());  // NULL
      }
    }
  }
  for (sql::ExprId p : rw.partition) {
    ENGINE_ASSIGN_OR_RETURN(int col, InnerColumn(ast, p, scope));
    spec.partition.push_back(col);
    spec.partition_coll.push_back(ExprCollation(wb->inner[static_cast<size_t>(col)]));
  }
  for (const sql::OrderingTerm& t : rw.order) {
    WindowOrderKey k;
    ENGINE_ASSIGN_OR_RETURN(k.column, InnerColumn(ast, t.expr, scope));
    k.desc = t.order == sql::SortOrder::kDesc;
    k.nulls_first =
        t.nulls == sql::NullsOrder::kDefault ? !k.desc : t.nulls == sql::NullsOrder::kFirst;
    k.coll = ExprCollation(wb->inner[static_cast<size_t>(k.column)]);
    spec.order.push_back(k);
  }
  wb->specs.push_back(rw);
  stage.specs.push_back(std::move(spec));
  return static_cast<int>(stage.specs.size() - 1);
}

Result<int32_t> Planner::CompileWindowCall(const sql::Ast& ast, const sql::Expr& e,
                                           const Scope* scope) {
  const std::string name(ast.str(e.u.ids.a));
  const bool star = e.has(sql::Expr::kStar);
  const int nargs = star ? 0 : static_cast<int>(e.list_size);
  const int at = ast.offset_of(e);
  WindowCall call;
  if (const auto wf = func::FindWindowFunction(name)) {
    // (row_number(*) is row_number(): a star is no argument.)
    if (!func::WindowArityOk(*wf, nargs)) {
      return Status::SqlError("wrong number of arguments to function " + name + "()")
          .WithOffset(at);
    }
    if (e.third != sql::kNoExpr) {
      return Status::SqlError("FILTER clause may only be used with aggregate window functions");
    }
    call.fn = *wf;
  } else if (const auto agg = func::FindAggregate(name, nargs, star)) {
    call.aggregate = true;
    call.agg = *agg;
  } else {
    // A scalar function of that name, with any number of arguments, may
    // not be used so (min(a, b), abs()); else the aggregate's or the
    // lookup's own error.
    bool scalar = false;
    for (const func::ScalarFunction* f = func::ScalarFunctionsBegin();
         f != func::ScalarFunctionsEnd(); ++f) {
      scalar |= EqualsNoCase(f->name, name);
    }
    if (scalar) {
      return Status::SqlError(name + "() may not be used as a window function").WithOffset(at);
    }
    const func::ScalarFunction* fn = nullptr;
    Status st = func::LookupScalarFunction(name, nargs, &fn);
    if (st.ok()) st = Status::SqlError(name + "() may not be used as a window function");
    return std::move(st).WithOffset(at);
  }
  if (e.has(sql::Expr::kDistinct)) {
    return Status::SqlError("DISTINCT is not supported for window functions");
  }
  WindowBinding* wb = window_;
  ResolvedWindow rw;
  const sql::WindowDef& def = ast.windows[e.u.ids.b];
  ENGINE_RETURN_IF_ERROR(ResolveWindow(ast, def, wb->core->windows.size(), false, &rw));
  ENGINE_RETURN_IF_ERROR(CheckFrame(rw));
  // The ranking functions, ntile, lag and lead read no frame: SQLite then
  // drops it, offsets (and their errors) included.
  if (!call.aggregate && !func::UsesFrame(call.fn)) rw.frame = nullptr;
  // (Frames with EXCLUDE are scanned row by row, and do test it.)
  const bool unbounded_start = rw.frame == nullptr ||
                               rw.frame->start == sql::FrameBound::kUnboundedPreceding ||
                               rw.frame->has_exclude;
  const sql::ExprId* args = ast.list(e);
  for (int i = 0; i < nargs; ++i) {
    ENGINE_ASSIGN_OR_RETURN(call.args[i], InnerColumn(ast, args[i], scope));
  }
  call.nargs = nargs;
  if (nargs > 0) call.coll = ExprCollation(wb->inner[static_cast<size_t>(call.args[0])]);
  if (e.third != sql::kNoExpr) {
    // As for plain aggregates: agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END).
    window_ = nullptr;
    Result<int32_t> cond = Compile(ast, e.third, scope);
    window_ = wb;
    if (!cond.ok()) return cond.status();
  }
  // SQLite 3.40 applies no FILTER to min() and max() over a frame whose
  // start moves (it keeps those frames in an index that skips the test);
  // so neither does this engine, to give the same results.
  const bool minmax = call.aggregate && (call.agg == func::AggregateKind::kMin ||
                                         call.agg == func::AggregateKind::kMax);
  if (e.third != sql::kNoExpr && !(minmax && !unbounded_start)) {
    window_ = nullptr;
    Result<int32_t> cond = Compile(ast, e.third, scope);
    window_ = wb;
    if (!cond.ok()) return cond.status();
    int32_t value;
    if (call.agg == func::AggregateKind::kCountStar) {
      call.agg = func::AggregateKind::kCount;
      Node one;
      one.k = Value::Integer(1);
      value = AddNode(one);
      call.nargs = 1;
    } else {
      value = wb->inner[static_cast<size_t>(call.args[0])];
    }
    Node c;
    c.op = Op::kCase;
    c.list = static_cast<uint32_t>(prog_->lists.size());
    c.nlist = 2;
    prog_->lists.push_back(*cond);
    prog_->lists.push_back(value);
    wb->inner.push_back(AddNode(c));
    call.args[0] = static_cast<int>(wb->inner.size() - 1);
  }
  ENGINE_ASSIGN_OR_RETURN(call.spec, WindowSpecFor(ast, rw, scope));
  WindowStage& stage = prog_->windows[static_cast<size_t>(wb->stage)];
  stage.calls.push_back(call);
  Node n;
  n.op = Op::kColumn;
  n.src = wb->src;
  n.col = -1;  // set by FinishWindowCore, once the inner row's width is known
  const int32_t ref = AddNode(n);
  wb->call_refs.push_back(ref);
  return ref;
}

void Planner::FinishWindowCore(Select* out, Core* core, const CoreBinding& bind,
                               WindowBinding* wb) {
  WindowStage& stage = prog_->windows[static_cast<size_t>(wb->stage)];
  stage.inner_width = static_cast<int>(wb->inner.size());
  for (size_t i = 0; i < wb->call_refs.size(); ++i) {
    prog_->nodes[static_cast<size_t>(wb->call_refs[i])].col =
        stage.inner_width + static_cast<int32_t>(i);
  }
  // SQLite sorts by the last window written first; each later sort keeps
  // the order of the rows it ties on.
  stage.spec_order.clear();
  for (size_t i = stage.specs.size(); i-- > 0;) stage.spec_order.push_back(static_cast<int>(i));
  const int index = static_cast<int>(prog_->selects.size());
  Select& in = prog_->selects.emplace_back();
  in.cores.push_back(std::move(*core));
  Core& ic = in.cores[0];
  std::vector<int32_t> results = std::move(ic.results);
  const bool distinct = ic.distinct;
  ic.results = wb->inner;
  ic.distinct = false;
  in.visible = in.width = stage.inner_width;
  in.names.assign(static_cast<size_t>(stage.inner_width), std::string());
  in.affinities.assign(static_cast<size_t>(stage.inner_width), Affinity::kNone);
  in.aliases = in.names;
  in.correlated = out->correlated;
  in.outer_refs = out->outer_refs;
  FinishCore(&ic, bind);
  FinishCovering(&ic);
  *core = Core();
  core->results = std::move(results);
  core->distinct = distinct;
  Level lv;
  lv.src = wb->src;
  lv.access = Access::kSubquery;
  lv.subquery = index;
  lv.window = wb->stage;
  lv.display = "(subquery)";
  core->levels.push_back(std::move(lv));
}

}  // namespace engine::plan
