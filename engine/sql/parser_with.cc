// WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (select), ...:
// the common table expressions before a SELECT, an INSERT, an UPDATE or a
// DELETE (parse.y's `with` and `wqlist`).
#include "engine/sql/parser.h"
#include "engine/util/ascii.h"

namespace engine::sql {
// RECURSIVE and MATERIALIZED are fallback keywords in SQLite (usable as
// names), so they stay identifiers here and are recognised by their spelling
// (Parser::IsWord).
Result<int32_t> Parser::ParseWith() {
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kWith));
  WithClause with;
  // After WITH the word is always the keyword (`WITH recursive AS ...` is
  // a syntax error in SQLite too).
  if (IsWord(Peek(), "RECURSIVE")) {
    Advance();
    with.recursive = true;
  }
  do {
    CommonTableExpr cte;
    ENGINE_ASSIGN_OR_RETURN(cte.name, ParseName());
    if (PeekIs(TokenKind::kLParen)) ENGINE_RETURN_IF_ERROR(ParseNameList(cte.columns));
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAs));
    if (IsWord(Peek(), "MATERIALIZED")) {
      Advance();
      cte.materialized = CommonTableExpr::Materialized::kYes;
    } else if (Accept(TokenKind::kNot)) {
      if (!IsWord(Peek(), "MATERIALIZED")) return ErrorNear();
      Advance();
      cte.materialized = CommonTableExpr::Materialized::kNo;
    }
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    if (!AtSelectStart()) return ErrorNear();
    ENGINE_ASSIGN_OR_RETURN(cte.select, ParseSelect());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    // sqlite3WithAdd refuses the name while parsing, used or not.
    for (const CommonTableExpr& earlier : with.ctes) {
      if (EqualsNoCaseAscii(earlier.name, cte.name)) {
        return Status::SqlError("duplicate WITH table name: " + cte.name);
      }
    }
    with.ctes.push_back(std::move(cte));
  } while (Accept(TokenKind::kComma));
  ast_->withs.push_back(std::move(with));
  return static_cast<int32_t>(ast_->withs.size() - 1);
}

Status Parser::ParseWithStatement(Statement& st) {
  ENGINE_ASSIGN_OR_RETURN(int32_t with, ParseWith());
  switch (Peek().kind) {
    case TokenKind::kSelect:
    case TokenKind::kValues:
      pending_with_ = with;
      {
        ENGINE_ASSIGN_OR_RETURN(SelectId id, ParseSelect());
        st.body = SelectStmt{id};
      }
      return Status::OK();
    case TokenKind::kInsert:
    case TokenKind::kReplace:
      ast_->statement_with = with;
      return ParseInsert(st);
    case TokenKind::kUpdate:
      ast_->statement_with = with;
      return ParseUpdate(st);
    case TokenKind::kDelete:
      ast_->statement_with = with;
      return ParseDelete(st);
    default:
      return ErrorNear();
  }
}

}  // namespace engine::sql
