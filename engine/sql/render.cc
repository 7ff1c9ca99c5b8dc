#include "engine/sql/render.h"

#include <charconv>
#include <cmath>

#include "engine/sql/time_keyword.h"
#include "engine/sql/token.h"
#include "engine/sql/tokenizer.h"

namespace engine::sql {
namespace {

std::string_view BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr:
      return "OR";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "<>";
    case BinaryOp::kIs:
      return "IS";
    case BinaryOp::kIsNot:
      return "IS NOT";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kShiftLeft:
      return "<<";
    case BinaryOp::kShiftRight:
      return ">>";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSubtract:
      return "-";
    case BinaryOp::kMultiply:
      return "*";
    case BinaryOp::kDivide:
      return "/";
    case BinaryOp::kRemainder:
      return "%";
    case BinaryOp::kConcat:
      return "||";
  }
  return "?";
}

std::string_view LikeOpText(LikeOp op) {
  switch (op) {
    case LikeOp::kLike:
      return "LIKE";
    case LikeOp::kGlob:
      return "GLOB";
    case LikeOp::kMatch:
      return "MATCH";
    case LikeOp::kRegexp:
      return "REGEXP";
  }
  return "?";
}

class Renderer {
 public:
  explicit Renderer(const Ast& ast) : ast_(ast) {}

  void Expr(ExprId id);
  void Select(SelectId id);
  void With(const WithClause& with);

  std::string out;

 private:
  void Core(const SelectCore& core);
  void From(const std::vector<TableRef>& refs);
  void List(const engine::sql::Expr& e, size_t from = 0);
  void Ordering(const std::vector<OrderingTerm>& terms);
  void Window(const WindowDef& w);  // the inside of OVER (...) / AS (...)
  void Bound(engine::sql::FrameBound b, ExprId e);
  const Ast& ast_;
};

void Renderer::List(const engine::sql::Expr& e, size_t from) {
  const ExprId* items = ast_.list(e);
  for (size_t i = from; i < e.list_size; ++i) {
    if (i > from) out += ", ";
    Expr(items[i]);
  }
}

void Renderer::Expr(ExprId id) {
  const engine::sql::Expr& e = ast_.expr(id);
  const bool negated = e.has(engine::sql::Expr::kNegated);
  switch (e.kind) {
    case ExprKind::kNull:
      out += "NULL";
      return;
    case ExprKind::kInteger:
      out += std::to_string(e.u.integer);
      return;
    case ExprKind::kReal:
      out += RenderReal(e.u.real);
      return;
    case ExprKind::kString:
      out += QuoteString(ast_.str(e.u.ids.a));
      return;
    case ExprKind::kBlob: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "X'";
      for (unsigned char c : ast_.str(e.u.ids.a)) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      out += '\'';
      return;
    }
    case ExprKind::kParameter:
      out += ast_.str(e.u.ids.a);
      return;
    case ExprKind::kColumn:
      if (e.u.ids.b != kNoStr) {
        out += QuoteIdentifier(ast_.str(e.u.ids.b));
        out += '.';
      }
      out += QuoteIdentifier(ast_.str(e.u.ids.a));
      return;
    case ExprKind::kUnary:
      out += '(';
      switch (e.unary_op()) {
        case UnaryOp::kNegate:
          out += '-';
          break;
        case UnaryOp::kPlus:
          out += '+';
          break;
        case UnaryOp::kBitNot:
          out += '~';
          break;
        case UnaryOp::kNot:
          out += "NOT ";
          break;
      }
      {
        const size_t at = out.size();
        Expr(e.left);
        // "--" would start a comment (the operand may be a folded negative literal).
        if (out[at] == '-' && out[at - 1] == '-') out.insert(at, 1, ' ');
      }
      out += ')';
      return;
    case ExprKind::kBinary:
      out += '(';
      Expr(e.left);
      out += ' ';
      out += BinaryOpText(e.binary_op());
      out += ' ';
      Expr(e.right);
      out += ')';
      return;
    case ExprKind::kIsNull:
      out += '(';
      Expr(e.left);
      out += negated ? " IS NOT NULL)" : " IS NULL)";
      return;
    case ExprKind::kBetween:
      out += '(';
      Expr(e.left);
      out += negated ? " NOT BETWEEN " : " BETWEEN ";
      Expr(e.right);
      out += " AND ";
      Expr(e.third);
      out += ')';
      return;
    case ExprKind::kLike:
      out += '(';
      Expr(e.left);
      out += negated ? " NOT " : " ";
      out += LikeOpText(e.like_op());
      out += ' ';
      Expr(e.right);
      if (e.third != kNoExpr) {
        out += " ESCAPE ";
        Expr(e.third);
      }
      out += ')';
      return;
    case ExprKind::kInList:
      out += '(';
      Expr(e.left);
      out += negated ? " NOT IN (" : " IN (";
      List(e);
      out += "))";
      return;
    case ExprKind::kInSelect:
      out += '(';
      Expr(e.left);
      out += negated ? " NOT IN (" : " IN (";
      Select(e.u.select);
      out += "))";
      return;
    case ExprKind::kCase: {
      out += "CASE";
      if (e.left != kNoExpr) {
        out += ' ';
        Expr(e.left);
      }
      const ExprId* arms = ast_.list(e);
      for (uint32_t i = 0; i + 1 < e.list_size; i += 2) {
        out += " WHEN ";
        Expr(arms[i]);
        out += " THEN ";
        Expr(arms[i + 1]);
      }
      if (e.right != kNoExpr) {
        out += " ELSE ";
        Expr(e.right);
      }
      out += " END";
      return;
    }
    case ExprKind::kCast:
      out += "CAST(";
      Expr(e.left);
      out += " AS ";
      out += ast_.str(e.u.ids.a);
      out += ')';
      return;
    case ExprKind::kCollate:
      out += '(';
      Expr(e.left);
      out += " COLLATE ";
      out += QuoteIdentifier(ast_.str(e.u.ids.a));
      out += ')';
      return;
    case ExprKind::kFunction: {
      // Keywords that may name things (like, replace, glob) stay bare before
      // '(' where they are unambiguous; anything else is quoted as needed.
      const std::string_view name = ast_.str(e.u.ids.a);
      if (e.list_size == 0 && e.flags == 0 && IsTimeKeyword(name)) {
        out += name;  // CURRENT_DATE: "current_date()" would not parse
        return;
      }
      const std::string quoted = QuoteIdentifier(name);
      const bool bare_keyword = quoted != name && IsFallbackKeyword(LookupKeyword(name)) &&
                                QuoteIdentifier(std::string(name) + "_") == std::string(name) + "_";
      out += bare_keyword ? std::string(name) : quoted;
      out += '(';
      if (e.has(engine::sql::Expr::kStar)) out += '*';
      if (e.has(engine::sql::Expr::kDistinct)) out += "DISTINCT ";
      List(e);
      out += ')';
      if (e.third != kNoExpr) {
        out += " FILTER (WHERE ";
        Expr(e.third);
        out += ')';
      }
      if (e.has(engine::sql::Expr::kOver)) {
        const WindowDef& w = ast_.windows[e.u.ids.b];
        if (w.bare_name) {
          out += " OVER " + QuoteIdentifier(w.base);
        } else {
          out += " OVER (";
          Window(w);
          out += ')';
        }
      }
      return;
    }
    case ExprKind::kSubquery:
      out += '(';
      Select(e.u.select);
      out += ')';
      return;
    case ExprKind::kExists:
      out += "EXISTS (";
      Select(e.u.select);
      out += ')';
      return;
    case ExprKind::kRaise: {
      static const char* const kActions[] = {"", "ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"};
      out += "RAISE(";
      out += kActions[e.op < 6 ? e.op : 0];
      if (e.u.ids.a != kNoStr) out += ", " + QuoteString(ast_.str(e.u.ids.a));
      out += ')';
      return;
    }
  }
}

void Renderer::From(const std::vector<TableRef>& refs) {
  for (size_t i = 0; i < refs.size(); ++i) {
    const TableRef& ref = refs[i];
    if (i > 0) {
      switch (ref.join) {
        case JoinType::kComma:
          out += ", ";
          break;
        case JoinType::kInner:
          out += " JOIN ";
          break;
        case JoinType::kLeft:
          out += " LEFT JOIN ";
          break;
        case JoinType::kCross:
          out += " CROSS JOIN ";
          break;
        case JoinType::kNatural:
          out += " NATURAL JOIN ";
          break;
        case JoinType::kNaturalLeft:
          out += " NATURAL LEFT JOIN ";
          break;
      }
    }
    switch (ref.kind) {
      case TableRef::Kind::kTable:
        if (!ref.schema.empty()) out += QuoteIdentifier(ref.schema) + ".";
        out += QuoteIdentifier(ref.name);
        break;
      case TableRef::Kind::kSubquery:
        out += '(';
        Select(ref.select);
        out += ')';
        break;
      case TableRef::Kind::kGroup:
        out += '(';
        From(ref.group);
        out += ')';
        break;
    }
    if (!ref.alias.empty()) out += " AS " + QuoteIdentifier(ref.alias);
    if (ref.on != kNoExpr) {
      out += " ON ";
      Expr(ref.on);
    }
    if (!ref.using_columns.empty()) {
      out += " USING (";
      for (size_t j = 0; j < ref.using_columns.size(); ++j) {
        if (j > 0) out += ", ";
        out += QuoteIdentifier(ref.using_columns[j]);
      }
      out += ')';
    }
  }
}

void Renderer::Core(const SelectCore& core) {
  if (core.is_values()) {
    out += "VALUES ";
    for (size_t r = 0; r < core.values.size(); ++r) {
      out += r > 0 ? ", (" : "(";
      for (size_t i = 0; i < core.values[r].size(); ++i) {
        if (i > 0) out += ", ";
        Expr(core.values[r][i]);
      }
      out += ')';
    }
    return;
  }
  out += core.distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < core.columns.size(); ++i) {
    const ResultColumn& col = core.columns[i];
    if (i > 0) out += ", ";
    switch (col.kind) {
      case ResultColumn::Kind::kStar:
        out += '*';
        break;
      case ResultColumn::Kind::kTableStar:
        out += QuoteIdentifier(col.table) + ".*";
        break;
      case ResultColumn::Kind::kExpr:
        Expr(col.expr);
        if (!col.alias.empty()) out += " AS " + QuoteIdentifier(col.alias);
        break;
    }
  }
  if (!core.from.empty()) {
    out += " FROM ";
    From(core.from);
  }
  if (core.where != kNoExpr) {
    out += " WHERE ";
    Expr(core.where);
  }
  if (!core.group_by.empty()) {
    out += " GROUP BY ";
    for (size_t i = 0; i < core.group_by.size(); ++i) {
      if (i > 0) out += ", ";
      Expr(core.group_by[i]);
    }
  }
  if (core.having != kNoExpr) {
    out += " HAVING ";
    Expr(core.having);
  }
  for (size_t i = 0; i < core.windows.size(); ++i) {
    const WindowDef& w = ast_.windows[core.windows[i]];
    out += (i == 0 ? " WINDOW " : ", ") + QuoteIdentifier(w.name) + " AS (";
    Window(w);
    out += ')';
  }
}

void Renderer::Ordering(const std::vector<OrderingTerm>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    const OrderingTerm& t = terms[i];
    if (i > 0) out += ", ";
    Expr(t.expr);
    if (t.order == SortOrder::kAsc) out += " ASC";
    if (t.order == SortOrder::kDesc) out += " DESC";
    if (t.nulls == NullsOrder::kFirst) out += " NULLS FIRST";
    if (t.nulls == NullsOrder::kLast) out += " NULLS LAST";
  }
}

void Renderer::Bound(engine::sql::FrameBound b, ExprId e) {
  switch (b) {
    case FrameBound::kUnboundedPreceding:
      out += "UNBOUNDED PRECEDING";
      return;
    case FrameBound::kPreceding:
      Expr(e);
      out += " PRECEDING";
      return;
    case FrameBound::kCurrentRow:
      out += "CURRENT ROW";
      return;
    case FrameBound::kFollowing:
      Expr(e);
      out += " FOLLOWING";
      return;
    case FrameBound::kUnboundedFollowing:
      out += "UNBOUNDED FOLLOWING";
      return;
  }
}

void Renderer::Window(const WindowDef& w) {
  std::string sep;
  if (!w.base.empty()) {
    out += QuoteIdentifier(w.base);
    sep = " ";
  }
  if (!w.partition_by.empty()) {
    out += sep + "PARTITION BY ";
    for (size_t i = 0; i < w.partition_by.size(); ++i) {
      if (i > 0) out += ", ";
      Expr(w.partition_by[i]);
    }
    sep = " ";
  }
  if (!w.order_by.empty()) {
    out += sep + "ORDER BY ";
    Ordering(w.order_by);
    sep = " ";
  }
  if (!w.has_frame) return;
  out += sep;
  out += w.unit == FrameUnit::kRows    ? "ROWS BETWEEN "
         : w.unit == FrameUnit::kRange ? "RANGE BETWEEN "
                                       : "GROUPS BETWEEN ";
  Bound(w.start, w.start_expr);
  out += " AND ";
  Bound(w.end, w.end_expr);
  if (w.has_exclude) {
    static const char* kExclude[] = {" EXCLUDE NO OTHERS", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP",
                                     " EXCLUDE TIES"};
    out += kExclude[static_cast<size_t>(w.exclude)];
  }
}

void Renderer::Select(SelectId id) {
  const engine::sql::Select& s = ast_.select(id);
  if (s.with >= 0) With(ast_.withs[static_cast<size_t>(s.with)]);
  for (size_t i = 0; i < s.cores.size(); ++i) {
    if (i > 0) {
      switch (s.ops[i - 1]) {
        case CompoundOp::kUnion:
          out += " UNION ";
          break;
        case CompoundOp::kUnionAll:
          out += " UNION ALL ";
          break;
        case CompoundOp::kIntersect:
          out += " INTERSECT ";
          break;
        case CompoundOp::kExcept:
          out += " EXCEPT ";
          break;
      }
    }
    Core(s.cores[i]);
  }
  if (!s.order_by.empty()) {
    out += " ORDER BY ";
    Ordering(s.order_by);
  }
  if (s.limit != kNoExpr) {
    out += " LIMIT ";
    Expr(s.limit);
  }
  if (s.offset != kNoExpr) {
    out += " OFFSET ";
    Expr(s.offset);
  }
}

void Renderer::With(const WithClause& with) {
  out += with.recursive ? "WITH RECURSIVE " : "WITH ";
  for (size_t i = 0; i < with.ctes.size(); ++i) {
    const CommonTableExpr& cte = with.ctes[i];
    if (i > 0) out += ", ";
    out += QuoteIdentifier(cte.name);
    if (!cte.columns.empty()) {
      out += '(';
      for (size_t c = 0; c < cte.columns.size(); ++c) {
        if (c > 0) out += ", ";
        out += QuoteIdentifier(cte.columns[c]);
      }
      out += ')';
    }
    out += " AS ";
    if (cte.materialized == CommonTableExpr::Materialized::kYes) out += "MATERIALIZED ";
    if (cte.materialized == CommonTableExpr::Materialized::kNo) out += "NOT MATERIALIZED ";
    out += '(';
    Select(cte.select);
    out += ')';
  }
  out += ' ';
}

}  // namespace

std::string RenderExpr(const Ast& ast, ExprId id) {
  Renderer r(ast);
  r.Expr(id);
  return std::move(r.out);
}

std::string RenderSelect(const Ast& ast, SelectId id) {
  Renderer r(ast);
  r.Select(id);
  return std::move(r.out);
}

std::string QuoteIdentifier(std::string_view name) {
  bool bare = !name.empty() && IsIdentifierStart(static_cast<unsigned char>(name[0])) &&
              LookupKeyword(name) == TokenKind::kIdentifier;
  for (unsigned char c : name) bare = bare && IsIdentifierChar(c);
  if (bare) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += '"';
  }
  out += '"';
  return out;
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  out += '\'';
  return out;
}

std::string RenderReal(double value) {
  if (std::isinf(value)) return value > 0 ? "1e999" : "-1e999";
  if (std::isnan(value)) return "NULL";
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  std::string out(buf, ec == std::errc() ? ptr : buf);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

}  // namespace engine::sql
