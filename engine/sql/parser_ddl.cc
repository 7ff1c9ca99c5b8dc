// CREATE TABLE / INDEX / VIEW, with the text SQLite keeps in sqlite_schema.
#include <cctype>

#include "engine/sql/parser.h"
#include "engine/util/ascii.h"

namespace engine::sql {
// SQLite rebuilds the schema text as "CREATE <kind> " followed by the source
// from the object's name to the statement's last token, so that IF NOT
// EXISTS, TEMP and the spelling of the leading keywords are normalised.
std::string Parser::SchemaSql(std::string_view kind, uint32_t name_offset) const {
  std::string out = "CREATE ";
  out += kind;
  out += ' ';
  out += sql_.substr(name_offset, last_end_ - name_offset);
  return out;
}

Status Parser::ParseIfNotExists(bool& flag) {
  if (!Accept(TokenKind::kIf)) return Status::OK();
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kNot));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kExists));
  flag = true;
  return Status::OK();
}

Status Parser::ParseNameList(std::vector<std::string>& names) {
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  do {
    ENGINE_ASSIGN_OR_RETURN(std::string name, ParseName());
    names.push_back(std::move(name));
  } while (Accept(TokenKind::kComma));
  return Expect(TokenKind::kRParen);
}

Status Parser::ParseCreate(Statement& st) {
  const bool temporary = Accept(TokenKind::kTemp) || Accept(TokenKind::kTemporary);
  if (!temporary && Accept(TokenKind::kUnique)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kIndex));
    return ParseCreateIndex(st, true);
  }
  if (Accept(TokenKind::kTable)) return ParseCreateTable(st, temporary);
  if (Accept(TokenKind::kView)) return ParseCreateView(st, temporary);
  if (IsWord(Peek(), "TRIGGER")) {
    Advance();
    return ParseCreateTrigger(st, temporary);
  }
  if (!temporary && Accept(TokenKind::kIndex)) return ParseCreateIndex(st, false);
  return ErrorNear();
}

Result<ConflictAction> Parser::ParseConflictAction() {
  switch (Peek().kind) {
    case TokenKind::kRollback:
      Advance();
      return ConflictAction::kRollback;
    case TokenKind::kAbort:
      Advance();
      return ConflictAction::kAbort;
    case TokenKind::kFail:
      Advance();
      return ConflictAction::kFail;
    case TokenKind::kIgnore:
      Advance();
      return ConflictAction::kIgnore;
    case TokenKind::kReplace:
      Advance();
      return ConflictAction::kReplace;
    default:
      return ErrorNear();
  }
}

Result<ConflictAction> Parser::ParseConflictClause() {
  if (!PeekIs(TokenKind::kOn) || !PeekIs(TokenKind::kConflict, 1)) return ConflictAction::kDefault;
  Advance();
  Advance();
  return ParseConflictAction();
}

Result<std::string> Parser::ParseTypeName() {
  const Token& first = Peek();
  if (!IsId(first) && first.kind != TokenKind::kString) return std::string();
  const uint32_t start = first.offset;
  while (IsId(Peek()) || PeekIs(TokenKind::kString)) Advance();
  if (Accept(TokenKind::kLParen)) {
    for (int i = 0; i < 2; ++i) {
      if (PeekIs(TokenKind::kPlus) || PeekIs(TokenKind::kMinus)) Advance();
      if (!PeekIs(TokenKind::kInteger) && !PeekIs(TokenKind::kFloat)) return ErrorNear();
      Advance();
      if (i == 0 && !Accept(TokenKind::kComma)) break;
    }
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  return std::string(sql_.substr(start, last_end_ - start));
}

Result<std::vector<IndexedColumn>> Parser::ParseIndexedColumns() {
  std::vector<IndexedColumn> columns;
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  do {
    IndexedColumn col;
    col.offset = Peek().offset;
    ENGINE_ASSIGN_OR_RETURN(col.name, ParseName());
    if (Accept(TokenKind::kCollate)) {
      ENGINE_ASSIGN_OR_RETURN(col.collation, ParseName());
    }
    ENGINE_ASSIGN_OR_RETURN(col.order, ParseSortOrder());
    columns.push_back(std::move(col));
  } while (Accept(TokenKind::kComma));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return columns;
}

Result<ExprId> Parser::ParseSignedLiteral() {
  const Token t = Peek();
  switch (t.kind) {
    case TokenKind::kLParen: {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(ExprId e, ParseExpr());
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      return e;
    }
    case TokenKind::kPlus:
    case TokenKind::kMinus: {
      // parse.y: DEFAULT PLUS term / DEFAULT MINUS term, where a term is a
      // number, a string, a blob or NULL (sqlite3 writes DEFAULT -'5').
      if (!PeekIs(TokenKind::kInteger, 1) && !PeekIs(TokenKind::kFloat, 1) &&
          !PeekIs(TokenKind::kString, 1) && !PeekIs(TokenKind::kBlob, 1) &&
          !PeekIs(TokenKind::kNull, 1)) {
        Advance();
        return ErrorNear();
      }
      return ParseUnary();
    }
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kString:
    case TokenKind::kBlob:
    case TokenKind::kNull:
      return ParsePrimary();
    default:
      if (IsTimeKeyword(t)) return ParseTimeKeyword();
      // DEFAULT id: SQLite takes a bare word as a string ("DEFAULT abc"),
      // but TRUE and FALSE as 1 and 0.
      if (IsId(t)) {
        Advance();
        Expr e;
        if (IsWord(t, "TRUE") || IsWord(t, "FALSE")) {
          e.kind = ExprKind::kInteger;
          e.u.integer = IsWord(t, "TRUE") ? 1 : 0;
        } else {
          e.kind = ExprKind::kString;
          e.u.ids.a = AddString(DecodeIdentifier(Text(t)));
        }
        return NewExpr(e);
      }
      return ErrorNear();
  }
}

Result<CheckDef> Parser::ParseCheck() {
  CheckDef check;
  check.name = constraint_name_;
  const Token open = Peek();
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  ENGINE_ASSIGN_OR_RETURN(check.expr, ParseExpr());
  const Token close = Peek();
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  // sqlite3 names an unnamed CHECK by its text as written, comments and
  // inner spacing kept, only the ends trimmed.
  size_t begin = open.offset + 1;
  size_t end = close.offset;
  while (begin < end && std::isspace(static_cast<unsigned char>(sql_[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(sql_[end - 1]))) --end;
  check.text = std::string(sql_.substr(begin, end - begin));
  return check;
}

Status Parser::ParseColumnDef(CreateTableStmt& table) {
  ColumnDef col;
  ENGINE_ASSIGN_OR_RETURN(col.name, ParseName());
  ENGINE_ASSIGN_OR_RETURN(col.type, ParseTypeName());
  // A CONSTRAINT name holds for the column's later constraints (sqlite3
  // resets it per column), and past the last column into the table
  // constraints that follow.
  constraint_name_.clear();
  for (;;) {
    if (Accept(TokenKind::kConstraint)) {
      ENGINE_ASSIGN_OR_RETURN(constraint_name_, ParseName());
    }
    const TokenKind k = Peek().kind;
    if (k == TokenKind::kPrimary) {
      Advance();
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kKey));
      col.primary_key = true;
      ENGINE_ASSIGN_OR_RETURN(col.primary_key_order, ParseSortOrder());
      ENGINE_ASSIGN_OR_RETURN(col.primary_key_conflict, ParseConflictClause());
      col.autoincrement = Accept(TokenKind::kAutoincrement);
    } else if (k == TokenKind::kNot) {
      Advance();
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kNull));
      col.not_null = true;
      ENGINE_ASSIGN_OR_RETURN(col.not_null_conflict, ParseConflictClause());
    } else if (k == TokenKind::kNull) {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(ConflictAction ignored, ParseConflictClause());
      (void)ignored;
    } else if (k == TokenKind::kUnique) {
      Advance();
      col.unique = true;
      ENGINE_ASSIGN_OR_RETURN(col.unique_conflict, ParseConflictClause());
    } else if (k == TokenKind::kCheck) {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(CheckDef check, ParseCheck());
      col.checks.push_back(std::move(check));
    } else if (k == TokenKind::kDefault) {
      Advance();
      const Token first = Peek();
      ENGINE_ASSIGN_OR_RETURN(col.default_value, ParseSignedLiteral());
      size_t begin = first.offset;
      size_t end = last_end_;
      if (first.kind == TokenKind::kLParen) {
        ++begin;
        --end;
      }
      while (begin < end && std::isspace(static_cast<unsigned char>(sql_[begin]))) ++begin;
      while (end > begin && std::isspace(static_cast<unsigned char>(sql_[end - 1]))) --end;
      col.default_text = std::string(sql_.substr(begin, end - begin));
    } else if (k == TokenKind::kCollate) {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(col.collation, ParseName());
    } else if (k == TokenKind::kReferences) {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(std::string foreign, ParseName());
      if (PeekIs(TokenKind::kLParen)) {
        std::vector<std::string> cols;
        ENGINE_RETURN_IF_ERROR(ParseNameList(cols));
      }
    } else {
      break;
    }
  }
  table.columns.push_back(std::move(col));
  return Status::OK();
}

Status Parser::ParseTableConstraint(CreateTableStmt& table) {
  TableConstraint c;
  if (Accept(TokenKind::kConstraint)) {
    ENGINE_ASSIGN_OR_RETURN(constraint_name_, ParseName());
    c.name = constraint_name_;
  }
  const TokenKind k = Peek().kind;
  if (k == TokenKind::kPrimary || k == TokenKind::kUnique) {
    Advance();
    if (k == TokenKind::kPrimary) ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kKey));
    c.kind = k == TokenKind::kPrimary ? TableConstraint::Kind::kPrimaryKey
                                      : TableConstraint::Kind::kUnique;
    ENGINE_ASSIGN_OR_RETURN(c.columns, ParseIndexedColumns());
    ENGINE_ASSIGN_OR_RETURN(c.conflict, ParseConflictClause());
  } else if (k == TokenKind::kCheck) {
    Advance();
    c.kind = TableConstraint::Kind::kCheck;
    ENGINE_ASSIGN_OR_RETURN(c.check, ParseCheck());
    ENGINE_ASSIGN_OR_RETURN(c.conflict, ParseConflictClause());
  } else if (k == TokenKind::kForeign) {
    Advance();
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kKey));
    c.kind = TableConstraint::Kind::kForeignKey;
    std::vector<std::string> names;
    ENGINE_RETURN_IF_ERROR(ParseNameList(names));
    for (std::string& n : names) c.columns.push_back(IndexedColumn{std::move(n), "", {}, 0});
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kReferences));
    ENGINE_ASSIGN_OR_RETURN(c.foreign_table, ParseName());
    if (PeekIs(TokenKind::kLParen)) ENGINE_RETURN_IF_ERROR(ParseNameList(c.foreign_columns));
  } else {
    return ErrorNear();
  }
  table.constraints.push_back(std::move(c));
  return Status::OK();
}

Status Parser::ParseCreateTable(Statement& st, bool temporary) {
  CreateTableStmt table;
  table.temporary = temporary;
  ENGINE_RETURN_IF_ERROR(ParseIfNotExists(table.if_not_exists));
  const uint32_t name_offset = Peek().offset;
  table.name_at = PeekIs(TokenKind::kDot, 1) ? Peek(2).offset : name_offset;
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  table.schema = std::move(name.first);
  table.name = std::move(name.second);
  if (Accept(TokenKind::kAs)) {
    if (!AtSelectStart()) return ErrorNear();
    ENGINE_ASSIGN_OR_RETURN(SelectId select, ParseSelect());
    table.as_select = select;
  } else {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    auto at_constraint = [this] {
      const TokenKind k = Peek().kind;
      return k == TokenKind::kConstraint || k == TokenKind::kPrimary || k == TokenKind::kUnique ||
             k == TokenKind::kCheck || k == TokenKind::kForeign;
    };
    do {
      ENGINE_RETURN_IF_ERROR(ParseColumnDef(table));
    } while (Accept(TokenKind::kComma) && !at_constraint());
    // Table constraints may be separated by commas or not, as in parse.y.
    while (at_constraint()) {
      ENGINE_RETURN_IF_ERROR(ParseTableConstraint(table));
      // A comma ends a CONSTRAINT name's reach (sqlite3's tconscomma);
      // constraints written one after another without one share it.
      if (Accept(TokenKind::kComma)) constraint_name_.clear();
    }
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    if (IsId(Peek())) {
      do {
        const Token option = Peek();
        if (Accept(TokenKind::kWithout)) {
          const Token rowid = Peek();
          if (!IsId(rowid) || !EqualsNoCaseAscii(Text(rowid), "rowid")) {
            return Status::SqlError("unknown table option: " + std::string(Text(rowid)));
          }
          Advance();
          table.without_rowid = true;
        } else if (IsId(option) && EqualsNoCaseAscii(Text(option), "strict")) {
          Advance();
          table.strict = true;
        } else {
          return Status::SqlError("unknown table option: " + std::string(Text(option)));
        }
      } while (Accept(TokenKind::kComma));
    }
  }
  table.schema_sql = SchemaSql("TABLE", table.name_at);  // sqlite3 stores no qualifier
  st.body = std::move(table);
  return Status::OK();
}

Status Parser::ParseCreateIndex(Statement& st, bool unique) {
  CreateIndexStmt index;
  index.unique = unique;
  ENGINE_RETURN_IF_ERROR(ParseIfNotExists(index.if_not_exists));
  const uint32_t name_offset = PeekIs(TokenKind::kDot, 1) ? Peek(2).offset : Peek().offset;
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  index.schema = std::move(name.first);
  index.name = std::move(name.second);
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kOn));
  ENGINE_ASSIGN_OR_RETURN(index.table, ParseName());
  ENGINE_ASSIGN_OR_RETURN(index.columns, ParseIndexedColumns());
  if (Accept(TokenKind::kWhere)) {
    ENGINE_ASSIGN_OR_RETURN(index.where, ParseExpr());
  }
  index.schema_sql = SchemaSql(unique ? "UNIQUE INDEX" : "INDEX", name_offset);
  st.body = std::move(index);
  return Status::OK();
}

Status Parser::ParseCreateView(Statement& st, bool temporary) {
  CreateViewStmt view;
  view.temporary = temporary;
  ENGINE_RETURN_IF_ERROR(ParseIfNotExists(view.if_not_exists));
  const uint32_t name_offset = Peek().offset;
  view.name_at = PeekIs(TokenKind::kDot, 1) ? Peek(2).offset : name_offset;
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  view.schema = std::move(name.first);
  view.name = std::move(name.second);
  if (PeekIs(TokenKind::kLParen)) ENGINE_RETURN_IF_ERROR(ParseNameList(view.columns));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAs));
  if (!AtSelectStart()) return ErrorNear();
  ENGINE_ASSIGN_OR_RETURN(view.select, ParseSelect());
  view.schema_sql = SchemaSql("VIEW", view.name_at);
  st.body = std::move(view);
  return Status::OK();
}

}  // namespace engine::sql
