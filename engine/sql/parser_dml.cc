// INSERT, UPDATE and DELETE.
#include "engine/sql/parser.h"

namespace engine::sql {

Status Parser::ParseInsert(Statement& st) {
  InsertStmt insert;
  if (Accept(TokenKind::kReplace)) {
    insert.conflict = ConflictAction::kReplace;
  } else {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kInsert));
    if (Accept(TokenKind::kOr)) {
      ENGINE_ASSIGN_OR_RETURN(insert.conflict, ParseConflictAction());
    }
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kInto));
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  insert.schema = std::move(name.first);
  insert.table = std::move(name.second);
  if (Accept(TokenKind::kAs)) {
    ENGINE_ASSIGN_OR_RETURN(insert.alias, ParseName());
  }
  if (PeekIs(TokenKind::kLParen)) ENGINE_RETURN_IF_ERROR(ParseNameList(insert.columns));
  if (Accept(TokenKind::kDefault)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kValues));
    insert.default_values = true;
  } else {
    if (!AtSelectStart()) return ErrorNear();
    ENGINE_ASSIGN_OR_RETURN(SelectId select, ParseSelect());
    insert.select = select;
  }
  // UPSERT: ON CONFLICT [(columns) [WHERE expr]] DO NOTHING | DO UPDATE SET
  // ... [WHERE expr], repeated.
  while (PeekIs(TokenKind::kOn) && PeekIs(TokenKind::kConflict, 1)) {
    // Only the last clause may go without a target, as in parse.y.
    if (!insert.upsert.empty() && insert.upsert.back().target.empty()) return ErrorNear();
    Advance();
    Advance();
    UpsertClause clause;
    if (PeekIs(TokenKind::kLParen)) {
      ENGINE_ASSIGN_OR_RETURN(clause.target, ParseIndexedColumns());
      if (Accept(TokenKind::kWhere)) {
        ENGINE_ASSIGN_OR_RETURN(clause.target_where, ParseExpr());
      }
    }
    if (!IsWord(Peek(), "DO")) return ErrorNear();
    Advance();
    if (Accept(TokenKind::kUpdate)) {
      clause.do_nothing = false;
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kSet));
      do {
        ENGINE_ASSIGN_OR_RETURN(std::string column, ParseName());
        ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kEq));
        ENGINE_ASSIGN_OR_RETURN(ExprId value, ParseExpr());
        clause.assignments.emplace_back(std::move(column), value);
      } while (Accept(TokenKind::kComma));
      if (Accept(TokenKind::kWhere)) {
        ENGINE_ASSIGN_OR_RETURN(clause.where, ParseExpr());
      }
    } else {
      if (!IsWord(Peek(), "NOTHING")) return ErrorNear();
      Advance();
    }
    insert.upsert.push_back(std::move(clause));
  }
  st.body = std::move(insert);
  return Status::OK();
}

Status Parser::ParseUpdate(Statement& st) {
  Advance();  // UPDATE
  UpdateStmt update;
  if (Accept(TokenKind::kOr)) {
    ENGINE_ASSIGN_OR_RETURN(update.conflict, ParseConflictAction());
  }
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  update.schema = std::move(name.first);
  update.table = std::move(name.second);
  if (Accept(TokenKind::kAs)) {
    ENGINE_ASSIGN_OR_RETURN(update.alias, ParseName());
  }
  ENGINE_RETURN_IF_ERROR(ParseIndexedBy(&update.indexed_by, &update.not_indexed));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kSet));
  do {
    ENGINE_ASSIGN_OR_RETURN(std::string column, ParseName());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kEq));
    ENGINE_ASSIGN_OR_RETURN(ExprId value, ParseExpr());
    update.assignments.emplace_back(std::move(column), value);
  } while (Accept(TokenKind::kComma));
  if (Accept(TokenKind::kWhere)) {
    ENGINE_ASSIGN_OR_RETURN(update.where, ParseExpr());
  }
  st.body = std::move(update);
  return Status::OK();
}

Status Parser::ParseDelete(Statement& st) {
  Advance();  // DELETE
  DeleteStmt del;
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kFrom));
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  del.schema = std::move(name.first);
  del.table = std::move(name.second);
  if (Accept(TokenKind::kAs)) {
    ENGINE_ASSIGN_OR_RETURN(del.alias, ParseName());
  }
  ENGINE_RETURN_IF_ERROR(ParseIndexedBy(&del.indexed_by, &del.not_indexed));
  if (Accept(TokenKind::kWhere)) {
    ENGINE_ASSIGN_OR_RETURN(del.where, ParseExpr());
  }
  st.body = std::move(del);
  return Status::OK();
}

}  // namespace engine::sql
