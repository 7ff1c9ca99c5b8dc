// CURRENT_DATE, CURRENT_TIME and CURRENT_TIMESTAMP. SQLite's tokenizer makes
// them keywords that fall back to identifiers wherever a keyword cannot
// stand, so a table may have a column named current_date, reachable as
// t.current_date; in an expression the bare word is always the keyword, a
// call of the zero-argument function of the same name (date_time.h).
#include "engine/sql/parser.h"
#include "engine/sql/time_keyword.h"
#include "engine/util/ascii.h"

namespace engine::sql {
namespace {}  // namespace

bool IsTimeKeyword(std::string_view s) {
  return EqualsNoCaseAscii(s, "current_date") || EqualsNoCaseAscii(s, "current_time") ||
         EqualsNoCaseAscii(s, "current_timestamp");
}

bool Parser::IsTimeKeyword(const Token& t) const {
  // The token's text has its quotes: "current_date" is a name.
  return t.kind == TokenKind::kIdentifier && sql::IsTimeKeyword(Text(t));
}

Result<ExprId> Parser::ParseTimeKeyword() {
  const Token name = Advance();
  Expr e;
  e.kind = ExprKind::kFunction;
  std::string lower(Text(name));
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  e.u.ids.a = AddString(std::move(lower));
  ENGINE_ASSIGN_OR_RETURN(ExprId id, NewExpr(e));
  RecordOffset(id, name);
  return id;
}

}  // namespace engine::sql
