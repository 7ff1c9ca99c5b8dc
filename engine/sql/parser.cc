#include "engine/sql/parser.h"

#include <utility>

namespace engine::sql {

// SQLite reads SQL as a C string: a NUL byte ends the text, even inside a
// quoted literal. Reading past it would accept statements that sqlite3
// cannot read back, e.g. a DEFAULT 'a<NUL>' stored in sqlite_schema.
Parser::Parser(std::string_view sql) : sql_(sql.substr(0, sql.find('\0'))), tokenizer_(sql_) {
  if (sql_.size() >= std::numeric_limits<uint32_t>::max()) {
    error_ = Status::SqlError("string or blob too big");
    sql_ = std::string_view();
    tokenizer_ = Tokenizer(sql_);
  }
}

const Token& Parser::Peek(int ahead) {
  while (buffered_ <= ahead) lookahead_[buffered_++] = tokenizer_.Next();
  return lookahead_[ahead];
}

Token Parser::Advance() {
  Token t = Peek(0);
  for (int i = 1; i < buffered_; ++i) lookahead_[i - 1] = lookahead_[i];
  --buffered_;
  if (t.kind != TokenKind::kEof) last_end_ = t.offset + t.length;
  return t;
}

bool Parser::Accept(TokenKind kind) {
  if (Peek().kind != kind) return false;
  Advance();
  return true;
}

Status Parser::Expect(TokenKind kind) {
  if (Accept(kind)) return Status::OK();
  return ErrorNear();
}

Status Parser::SyntaxError(const Token& at) const {
  if (at.kind == TokenKind::kEof) return Status::SqlError("incomplete input");
  std::string text(Text(at));
  const int offset = static_cast<int>(at.offset);
  if (at.kind == TokenKind::kIllegal) {
    return Status::SqlError("unrecognized token: \"" + text + "\"").WithOffset(offset);
  }
  return Status::SqlError("near \"" + text + "\": syntax error").WithOffset(offset);
}

Status Parser::ErrorNear() { return SyntaxError(Peek()); }

bool Parser::IsId(const Token& t) const {
  return t.kind == TokenKind::kIdentifier || IsFallbackKeyword(t.kind);
}

// parse.y's `nm`: an id, a string, or one of the join keywords.
bool Parser::IsName(const Token& t) const {
  switch (t.kind) {
    case TokenKind::kString:
    case TokenKind::kLeft:
    case TokenKind::kRight:
    case TokenKind::kFull:
    case TokenKind::kInner:
    case TokenKind::kCross:
    case TokenKind::kNatural:
    case TokenKind::kOuter:
      return true;
    default:
      return IsId(t);
  }
}

Result<std::string> Parser::ParseName() {
  if (!IsName(Peek())) return ErrorNear();
  return DecodeIdentifier(Text(Advance()));
}

Result<std::pair<std::string, std::string>> Parser::ParseQualifiedName() {
  ENGINE_ASSIGN_OR_RETURN(std::string first, ParseName());
  if (!Accept(TokenKind::kDot)) return std::make_pair(std::string(), std::move(first));
  ENGINE_ASSIGN_OR_RETURN(std::string second, ParseName());
  return std::make_pair(std::move(first), std::move(second));
}

Status Parser::EnterNesting() {
  if (++depth_ > kMaxExprDepth) {
    return Status::SqlError("Expression tree is too large (maximum depth " +
                            std::to_string(kMaxExprDepth) + ")");
  }
  return Status::OK();
}

Result<std::optional<Statement>> Parser::Next() {
  if (!error_.ok()) return error_;
  while (Accept(TokenKind::kSemicolon)) {
  }
  if (PeekIs(TokenKind::kEof)) {
    statement_end_ = sql_.size();
    return std::optional<Statement>();
  }
  Statement st;
  ast_ = &st.ast;
  params_ = &st.parameter_names;
  depth_ = 0;
  max_height_ = 0;
  named_params_.clear();
  const uint32_t start = Peek().offset;
  Status s = ParseStatementBody(st);
  if (s.ok() && !PeekIs(TokenKind::kSemicolon) && !PeekIs(TokenKind::kEof)) s = ErrorNear();
  ast_ = nullptr;
  params_ = nullptr;
  if (!s.ok()) {
    error_ = s;
    return s;
  }
  st.text = std::string(sql_.substr(start, last_end_ - start));
  Accept(TokenKind::kSemicolon);
  statement_end_ = last_end_;
  return std::optional<Statement>(std::move(st));
}

Status Parser::ParseStatementBody(Statement& st) {
  if (Accept(TokenKind::kExplain)) {
    st.explain = ExplainMode::kExplain;
    if (Accept(TokenKind::kQuery)) {
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kPlan));
      st.explain = ExplainMode::kQueryPlan;
    }
  }
  const Token t = Peek();
  switch (t.kind) {
    case TokenKind::kWith:
      return ParseWithStatement(st);
    case TokenKind::kSelect:
    case TokenKind::kValues: {
      ENGINE_ASSIGN_OR_RETURN(SelectId id, ParseSelect());
      st.body = SelectStmt{id};
      return Status::OK();
    }
    case TokenKind::kInsert:
    case TokenKind::kReplace:
      return ParseInsert(st);
    case TokenKind::kUpdate:
      return ParseUpdate(st);
    case TokenKind::kDelete:
      return ParseDelete(st);
    case TokenKind::kCreate:
      Advance();
      return ParseCreate(st);
    case TokenKind::kDrop:
      return ParseDrop(st);
    case TokenKind::kBegin:
      return ParseBegin(st);
    case TokenKind::kCommit:
    case TokenKind::kEnd:
      Advance();
      Accept(TokenKind::kTransaction);
      st.body = CommitStmt{};
      return Status::OK();
    case TokenKind::kRollback:
      Advance();
      Accept(TokenKind::kTransaction);
      st.body = RollbackStmt{};
      return Status::OK();
    case TokenKind::kPragma:
      return ParsePragma(st);
    default:
      if (IsWord(t, "REINDEX")) return ParseReindex(st);
      return ErrorNear();
  }
}

Status Parser::ParseReindex(Statement& st) {
  Advance();
  ReindexStmt reindex;
  if (!PeekIs(TokenKind::kSemicolon) && !PeekIs(TokenKind::kEof)) {
    reindex.name_at = Peek().offset;
    ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
    reindex.schema = std::move(name.first);
    reindex.name = std::move(name.second);
  }
  st.body = std::move(reindex);
  return Status::OK();
}

Status Parser::ParseBegin(Statement& st) {
  Advance();
  BeginStmt begin;
  if (Accept(TokenKind::kDeferred)) {
    begin.mode = BeginStmt::Mode::kDeferred;
  } else if (Accept(TokenKind::kImmediate)) {
    begin.mode = BeginStmt::Mode::kImmediate;
  } else if (Accept(TokenKind::kExclusive)) {
    begin.mode = BeginStmt::Mode::kExclusive;
  }
  if (Accept(TokenKind::kTransaction) && IsName(Peek())) Advance();  // optional name, unused
  st.body = begin;
  return Status::OK();
}

Status Parser::ParsePragma(Statement& st) {
  Advance();
  PragmaStmt pragma;
  pragma.name_at = Peek().offset;
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  pragma.schema = std::move(name.first);
  pragma.name = std::move(name.second);
  const bool paren = PeekIs(TokenKind::kLParen);
  if (Accept(TokenKind::kEq) || Accept(TokenKind::kLParen)) {
    // nmnum | signed number | ON | DELETE | DEFAULT, as parse.y allows.
    std::string value;
    if (PeekIs(TokenKind::kPlus) || PeekIs(TokenKind::kMinus)) value = std::string(Text(Advance()));
    const Token v = Peek();
    if (v.kind == TokenKind::kInteger || v.kind == TokenKind::kFloat) {
      value += Text(Advance());
    } else if (value.empty() && (IsName(v) || v.kind == TokenKind::kOn ||
                                 v.kind == TokenKind::kDelete || v.kind == TokenKind::kDefault)) {
      value = DecodeIdentifier(Text(Advance()));
    } else {
      return ErrorNear();
    }
    pragma.value = std::move(value);
    if (paren) ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  st.body = std::move(pragma);
  return Status::OK();
}

Status Parser::ParseDrop(Statement& st) {
  Advance();
  DropStmt drop;
  if (Accept(TokenKind::kTable)) {
    drop.kind = DropStmt::Kind::kTable;
  } else if (Accept(TokenKind::kIndex)) {
    drop.kind = DropStmt::Kind::kIndex;
  } else if (Accept(TokenKind::kView)) {
    drop.kind = DropStmt::Kind::kView;
  } else if (IsWord(Peek(), "TRIGGER")) {
    Advance();
    drop.kind = DropStmt::Kind::kTrigger;
  } else {
    return ErrorNear();
  }
  if (Accept(TokenKind::kIf)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kExists));
    drop.if_exists = true;
  }
  ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
  drop.schema = std::move(name.first);
  drop.name = std::move(name.second);
  st.body = std::move(drop);
  return Status::OK();
}

Result<Statement> ParseStatement(std::string_view sql) {
  Parser parser(sql);
  ENGINE_ASSIGN_OR_RETURN(std::optional<Statement> st, parser.Next());
  if (!st) return Status::SqlError("no statement to parse");
  ENGINE_ASSIGN_OR_RETURN(std::optional<Statement> extra, parser.Next());
  if (extra) return Status::SqlError("more than one statement");
  return std::move(*st);
}

Result<std::vector<Statement>> ParseScript(std::string_view sql) {
  Parser parser(sql);
  std::vector<Statement> out;
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(std::optional<Statement> st, parser.Next());
    if (!st) return out;
    out.push_back(std::move(*st));
  }
}

}  // namespace engine::sql
