#include "engine/catalog/absent_value.h"

#include <cstring>
#include <string>
#include <string_view>

#include "engine/catalog/schema.h"

namespace engine::catalog {

namespace {

// The number's token as written in the DEFAULT's text: without spaces,
// parentheses and signs, which the AST walk has taken apart.
std::string_view NumberToken(std::string_view s) {
  for (;;) {
    const size_t n = s.size();
    while (!s.empty() &&
           (s.front() == ' ' || s.front() == '(' || s.front() == '+' || s.front() == '-'))
      s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == ')')) s.remove_suffix(1);
    if (s.size() == n) return s;
  }
}

Value Copy(std::string_view bytes, bool text, func::ValueArena& arena) {
  char* p = arena.Allocate(bytes.size());
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return text ? Value::Text(p, bytes.size()) : Value::Blob(p, bytes.size());
}

}  // namespace

Value AbsentValue(const sql::Ast& ast, const sql::ColumnDef& cd, func::Affinity aff,
                  func::ValueArena& arena) {
  if (cd.default_value == sql::kNoExpr) return Value::Null();
  // TRUE and FALSE (sqlite3's TK_TRUEFALSE) read as the integers 1 and 0
  // under any affinity but REAL's.
  if (EqualsNoCase(cd.default_text, "true") || EqualsNoCase(cd.default_text, "false")) {
    const int64_t b = EqualsNoCase(cd.default_text, "true") ? 1 : 0;
    return aff == func::Affinity::kReal ? Value::Real(static_cast<double>(b)) : Value::Integer(b);
  }
  sql::ExprId e = cd.default_value;
  bool negate = false;
  for (;;) {
    const sql::Expr& x = ast.expr(e);
    if (x.kind != sql::ExprKind::kUnary) break;
    const auto op = static_cast<sql::UnaryOp>(x.op);
    if (op == sql::UnaryOp::kNegate && !negate) {
      negate = true;
    } else if (op != sql::UnaryOp::kPlus) {
      return Value::Null();
    }
    e = x.left;
  }
  const sql::Expr& x = ast.expr(e);
  Value v;
  bool number = false;
  switch (x.kind) {
    case sql::ExprKind::kNull:
      return Value::Null();  // no affinity turns NULL into anything
    case sql::ExprKind::kString:
      v = Copy(ast.str(x.u.ids.a), true, arena);
      break;
    case sql::ExprKind::kBlob:
      v = Copy(ast.str(x.u.ids.a), false, arena);
      break;
    case sql::ExprKind::kInteger:
      number = true;
      // sqlite3 keeps a literal that fits 32 bits as a number (EP_IntValue)
      // and any other as its token's text.
      if (x.u.integer >= INT32_MIN && x.u.integer <= INT32_MAX) {
        v = Value::Integer(x.u.integer);
      } else if (x.u.integer < 0) {
        // -9223372036854775808, which the parser reads as one literal.
        v = Copy("-" + std::string(NumberToken(cd.default_text)), true, arena);
      } else {
        v = Copy(NumberToken(cd.default_text), true, arena);
      }
      break;
    case sql::ExprKind::kReal:
      number = true;
      v = Copy(NumberToken(cd.default_text), true, arena);
      break;
    default:
      return Value::Null();
  }
  // A number under no affinity of its own (a column without a type) is made
  // numeric, as sqlite3 applies NUMERIC to a numeric token there.
  const func::Affinity first =
      number && (aff == func::Affinity::kBlob || aff == func::Affinity::kNone)
          ? func::Affinity::kNumeric
          : aff;
  v = func::ApplyAffinity(v, first, arena);
  if (!negate) return v;
  v = func::ApplyNumericAffinity(v, /*try_for_int=*/true);
  if (v.type() == ValueType::kInteger) {
    // -(-2^63) stays a number, as a REAL (sqlite3's SMALLEST_INT64 case).
    v = v.as_int() == INT64_MIN ? Value::Real(9223372036854775808.0) : Value::Integer(-v.as_int());
  } else if (v.type() == ValueType::kReal) {
    v = Value::Real(-v.as_real());
  } else {
    v = Value::Integer(0);  // '-' on text that is no number, or a blob: sqlite3 reads 0
  }
  return func::ApplyAffinity(v, aff, arena);
}

}  // namespace engine::catalog
