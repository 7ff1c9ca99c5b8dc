// A hand-written recursive-descent parser for SQLite's SQL dialect (the
// subset in ../shared/DESIGN.md). It follows parse.y: the same operator
// precedence, the same keywords usable as names, the same parameter
// numbering, and errors in SQLite's words ("near \"FROM\": syntax error",
// "incomplete input", "unrecognized token: ...").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/sql/ast.h"
#include "engine/sql/token.h"
#include "engine/sql/tokenizer.h"
#include "engine/status.h"

namespace engine::sql {

class Parser {
 public:
  explicit Parser(std::string_view sql);

  // The next statement of the script, or nullopt once only whitespace,
  // comments and ';' remain. After an error every call returns that error.
  Result<std::optional<Statement>> Next();

  // Byte offset just past the last statement returned (the "tail").
  size_t offset() const { return statement_end_; }

 private:
  // Expression precedence levels, loosest first, as in parse.y.
  enum Prec : int {
    kPrecOr = 1,
    kPrecAnd,
    kPrecNot,
    kPrecEquality,
    kPrecCompare,
    kPrecEscape,
    kPrecBit,
    kPrecAdd,
    kPrecMul,
    kPrecConcat,
    kPrecCollate,
    kPrecUnary
  };

  // Tokens.
  const Token& Peek(int ahead = 0);
  Token Advance();
  bool Accept(TokenKind kind);
  bool PeekIs(TokenKind kind, int ahead = 0) { return Peek(ahead).kind == kind; }
  Status Expect(TokenKind kind);
  std::string_view Text(const Token& t) const { return t.text(sql_); }
  Status SyntaxError(const Token& at) const;
  Status ErrorNear();  // at the current token
  bool IsId(const Token& t) const;
  bool IsName(const Token& t) const;
  Result<std::string> ParseName();
  Result<std::pair<std::string, std::string>> ParseQualifiedName();  // [schema.]name

  // Statements.
  Status ParseStatementBody(Statement& st);
  Status ParseCreate(Statement& st);
  Status ParseCreateTable(Statement& st, bool temporary);
  Status ParseColumnDef(CreateTableStmt& table);
  Status ParseTableConstraint(CreateTableStmt& table);
  Status ParseCreateIndex(Statement& st, bool unique);
  Status ParseCreateView(Statement& st, bool temporary);
  Status ParseCreateTrigger(Statement& st, bool temporary);  // parser_trigger.cc
  Result<ExprId> ParseRaise();
  // Whether `t` is the (non-reserved) word `word`, as TRIGGER, BEFORE, ...
  bool IsWord(const Token& t, std::string_view word) const;
  Status ParseDrop(Statement& st);
  Status ParseInsert(Statement& st);
  Status ParseUpdate(Statement& st);
  Status ParseDelete(Statement& st);
  Status ParseBegin(Statement& st);
  Status ParsePragma(Statement& st);
  Status ParseReindex(Statement& st);
  Result<ConflictAction> ParseConflictClause();  // [ON CONFLICT action]
  Result<ConflictAction> ParseConflictAction();  // ROLLBACK | ABORT | ...
  Result<std::vector<IndexedColumn>> ParseIndexedColumns();
  Result<std::string> ParseTypeName();
  Result<SortOrder> ParseSortOrder();
  Status ParseIfNotExists(bool& flag);
  Status ParseNameList(std::vector<std::string>& names);  // ( a, b, ... )
  std::string SchemaSql(std::string_view kind, uint32_t name_offset) const;

  // SELECT.
  Result<SelectId> ParseSelect();
  Status ParseSelectCore(SelectCore& core);
  Status ParseOrderByAndLimit(Select& s);
  static Status CompoundAfterOrderBy(const Select& s, std::string_view op_name);
  Status ParseValuesCore(SelectCore& core);
  Status ParseResultColumn(SelectCore& core);
  Status ParseFrom(std::vector<TableRef>& refs);
  Result<TableRef> ParseTableRef();
  // INDEXED is no keyword here: the word after a table name (where SQLite's
  // grammar takes it for the clause, never an alias), or after NOT.
  bool AtIndexedBy();
  Status ParseIndexedBy(std::string* indexed_by, bool* not_indexed);
  Status ParseTableRefSource(TableRef& ref);
  Status ParseJoinConstraint(TableRef& ref);
  Result<std::string> ParseOptionalAlias();
  Status ParseOrderBy(std::vector<OrderingTerm>& terms);
  Result<std::optional<JoinType>> ParseJoinOperator();
  static bool IsJoinKeyword(const Token& t);
  bool AtSelectStart(int ahead = 0);
  // WITH ...: the clause into Ast::withs; returns its index (parser_with.cc).
  Result<int32_t> ParseWith();
  // WITH ... followed by the SELECT, INSERT, UPDATE or DELETE it belongs to.
  Status ParseWithStatement(Statement& st);

  // Expressions.
  Result<ExprId> ParseExpr(int min_prec = kPrecOr);
  Result<ExprId> ParseUnary();
  Result<ExprId> ParsePrimary();
  Result<ExprId> ParseBinaryTail(ExprId left, int min_prec, bool& progressed);
  Result<ExprId> ParseParenthesized();
  Result<ExprId> ParseCase();
  Result<ExprId> ParseCast();
  Result<ExprId> ParseFunctionCall();
  // Window syntax (parser_window.cc).
  bool PeekWord(std::string_view word, int ahead = 0);  // an id spelled `word` (upper case)
  bool AcceptWord(std::string_view word);
  Status ExpectWord(std::string_view word);
  bool AtWindowClause();                                    // WINDOW name AS
  Status ParseFunctionTail(Expr& e, uint32_t name_offset);  // [FILTER (WHERE x)] [OVER ...]
  Result<uint32_t> ParseWindowDefn();  // after '(' up to ')': an Ast::windows index
  Status ParseFrameBound(bool start, FrameBound* bound, ExprId* expr);
  Status ParseWindowClause(SelectCore& core);
  Result<ExprId> ParseLiteral();
  Result<ExprId> ParseExists();
  Result<ExprId> ParseColumnRef();
  Result<ExprId> ParseInTail(ExprId left, bool negated);
  Result<ExprId> ParseNumber(const Token& t);
  Result<ExprId> ParseVariable(const Token& t);
  Result<ExprId> ParseSignedLiteral();  // DEFAULT values
  // CHECK's "(expr)", named by constraint_name_.
  Result<CheckDef> ParseCheck();
  // CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP (parser_time_keyword.cc).
  bool IsTimeKeyword(const Token& t) const;
  Result<ExprId> ParseTimeKeyword();
  Result<ExprId> NewExpr(Expr e, const std::vector<ExprId>* list = nullptr);
  Result<ExprId> NewSubquery(ExprKind kind, SelectId select, ExprId left, bool negated);
  StrId AddString(std::string s);
  // Remembers where expression `id` starts, for the planner's error offsets.
  void RecordOffset(ExprId id, const Token& at);

  // Nesting guard shared by expressions and subqueries: each level costs a
  // few stack frames, so the depth limit bounds stack use.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser& p) : p_(p) {}
    ~DepthGuard() { p_.LeaveNesting(); }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser& p_;
  };
  Status EnterNesting();
  void LeaveNesting() { --depth_; }

  std::string_view sql_;
  Tokenizer tokenizer_;
  std::array<Token, 4> lookahead_{};
  int buffered_ = 0;
  uint32_t last_end_ = 0;  // end of the last consumed token
  size_t statement_end_ = 0;
  Status error_;

  // Per-statement state.
  Ast* ast_ = nullptr;
  std::vector<std::string>* params_ = nullptr;
  std::unordered_map<std::string, uint32_t> named_params_;  // ":a" -> index, for reuse
  uint32_t depth_ = 0;
  uint32_t max_height_ = 0;          // tallest expression since the enclosing SELECT began
  uint32_t last_select_height_ = 0;  // tallest expression of the SELECT just parsed
  int32_t pending_with_ = -1;        // a statement's WITH, for the SELECT that follows it
  // CREATE TABLE: the CONSTRAINT name in force, which sqlite3 gives every
  // CHECK after it until the next column or the next comma between table
  // constraints.
  std::string constraint_name_;
};

// Exactly one statement (a trailing ';' is allowed).
Result<Statement> ParseStatement(std::string_view sql);
// Every statement of a script.
Result<std::vector<Statement>> ParseScript(std::string_view sql);

}  // namespace engine::sql
