// CREATE TRIGGER and RAISE(). TRIGGER, BEFORE, AFTER, INSTEAD, OF, FOR,
// EACH, ROW and RAISE are matched as words rather than made keywords: all
// but RAISE may name things in SQLite too, and a word the tokenizer does not
// know costs nothing to the statements that never use it.
#include "engine/sql/parser.h"
#include "engine/util/ascii.h"

namespace engine::sql {

bool Parser::IsWord(const Token& t, std::string_view word) const {
  return t.kind == TokenKind::kIdentifier && EqualsNoCaseAscii(Text(t), word);
}

Status Parser::ParseCreateTrigger(Statement& st, bool temporary) {
  CreateTriggerStmt trig;
  trig.temporary = temporary;
  ENGINE_RETURN_IF_ERROR(ParseIfNotExists(trig.if_not_exists));
  const uint32_t name_offset = Peek().offset;
  trig.name_at = PeekIs(TokenKind::kDot, 1) ? Peek(2).offset : name_offset;
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  trig.schema = std::move(name.first);
  trig.name = std::move(name.second);
  if (IsWord(Peek(), "BEFORE")) {
    Advance();
  } else if (IsWord(Peek(), "AFTER")) {
    Advance();
    trig.timing = CreateTriggerStmt::Timing::kAfter;
  } else if (IsWord(Peek(), "INSTEAD")) {
    Advance();
    if (!IsWord(Peek(), "OF")) return ErrorNear();
    Advance();
    trig.timing = CreateTriggerStmt::Timing::kInsteadOf;
  }
  if (Accept(TokenKind::kDelete)) {
    trig.event = CreateTriggerStmt::Event::kDelete;
  } else if (Accept(TokenKind::kInsert)) {
    trig.event = CreateTriggerStmt::Event::kInsert;
  } else if (Accept(TokenKind::kUpdate)) {
    trig.event = CreateTriggerStmt::Event::kUpdate;
    if (IsWord(Peek(), "OF")) {
      Advance();
      do {
        ENGINE_ASSIGN_OR_RETURN(std::string col, ParseName());
        trig.columns.push_back(std::move(col));
      } while (Accept(TokenKind::kComma));
    }
  } else {
    return ErrorNear();
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kOn));
  ENGINE_ASSIGN_OR_RETURN(auto table, ParseQualifiedName());
  trig.table_schema = std::move(table.first);
  trig.table = std::move(table.second);
  if (IsWord(Peek(), "FOR")) {
    Advance();
    if (!IsWord(Peek(), "EACH")) return ErrorNear();
    Advance();
    if (!IsWord(Peek(), "ROW")) return ErrorNear();
    Advance();
  }
  if (Accept(TokenKind::kWhen)) {
    ENGINE_ASSIGN_OR_RETURN(trig.when, ParseExpr());
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBegin));
  // Each body statement is parsed into a scratch tree (syntax errors are
  // the CREATE's) and kept as text.
  Ast* const outer_ast = ast_;
  std::vector<std::string>* const outer_params = params_;
  do {
    Statement scratch;
    ast_ = &scratch.ast;
    params_ = &scratch.parameter_names;
    const uint32_t start = Peek().offset;
    Status s;
    switch (Peek().kind) {
      case TokenKind::kInsert:
      case TokenKind::kReplace:
        s = ParseInsert(scratch);
        break;
      case TokenKind::kUpdate:
        s = ParseUpdate(scratch);
        break;
      case TokenKind::kDelete:
        s = ParseDelete(scratch);
        break;
      case TokenKind::kSelect:
      case TokenKind::kValues:
        s = ParseSelect().status();
        break;
      default:
        s = ErrorNear();
    }
    ast_ = outer_ast;
    params_ = outer_params;
    ENGINE_RETURN_IF_ERROR(s);
    if (!scratch.parameter_names.empty()) {
      return Status::SqlError("trigger cannot use variables");
    }
    const auto* ins = scratch.as<InsertStmt>();
    const auto* upd = scratch.as<UpdateStmt>();
    const auto* del = scratch.as<DeleteStmt>();
    if ((ins != nullptr && !ins->schema.empty()) || (upd != nullptr && !upd->schema.empty()) ||
        (del != nullptr && !del->schema.empty())) {
      return Status::SqlError(
          "qualified table names are not allowed on INSERT, UPDATE, and DELETE statements within "
          "triggers");
    }
    trig.body.emplace_back(sql_.substr(start, last_end_ - start));
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kSemicolon));
  } while (!PeekIs(TokenKind::kEnd));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kEnd));
  trig.schema_sql = SchemaSql("TRIGGER", trig.name_at);
  st.body = std::move(trig);
  return Status::OK();
}

Result<ExprId> Parser::ParseRaise() {
  const Token at = Advance();  // RAISE
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  Expr e;
  e.kind = ExprKind::kRaise;
  e.u.ids.a = kNoStr;
  if (Accept(TokenKind::kIgnore)) {
    e.op = static_cast<uint8_t>(ConflictAction::kIgnore);
  } else {
    if (Accept(TokenKind::kRollback)) {
      e.op = static_cast<uint8_t>(ConflictAction::kRollback);
    } else if (Accept(TokenKind::kAbort)) {
      e.op = static_cast<uint8_t>(ConflictAction::kAbort);
    } else if (Accept(TokenKind::kFail)) {
      e.op = static_cast<uint8_t>(ConflictAction::kFail);
    } else {
      return ErrorNear();
    }
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kComma));
    // parse.y's `nm`: the message is a name or a string, not an expression.
    const Token msg = Peek();
    if (!IsName(msg)) return ErrorNear();
    Advance();
    e.u.ids.a = AddString(msg.kind == TokenKind::kString ? DecodeString(Text(msg))
                                                         : DecodeIdentifier(Text(msg)));
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  ENGINE_ASSIGN_OR_RETURN(ExprId id, NewExpr(e));
  RecordOffset(id, at);
  return id;
}

}  // namespace engine::sql
