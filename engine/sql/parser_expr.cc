// Expressions: precedence climbing over the levels of parse.y. Prefix
// operators parse their operand at their own level and the binary loop then
// continues at the caller's level, which reproduces the shift/reduce choices
// of SQLite's LALR grammar (e.g. `a = NOT b AND c` is `(a = (NOT b)) AND c`).
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>

#include "engine/sql/parser.h"

namespace engine::sql {
namespace {

constexpr uint32_t kMaxVariableNumber = 32766;  // SQLITE_MAX_VARIABLE_NUMBER

Expr Make(ExprKind kind, uint8_t op = 0, ExprId left = kNoExpr, ExprId right = kNoExpr,
          ExprId third = kNoExpr) {
  Expr e;
  e.kind = kind;
  e.op = op;
  e.left = left;
  e.right = right;
  e.third = third;
  return e;
}

uint8_t Op(BinaryOp op) { return static_cast<uint8_t>(op); }

// Marks a real literal that was written as 9223372036854775808, so that a
// unary minus in front of it yields the integer -9223372036854775808.
constexpr uint8_t kRealFromInt64MinMagnitude = 1;

}  // namespace

StrId Parser::AddString(std::string s) {
  ast_->strings.push_back(std::move(s));
  return static_cast<StrId>(ast_->strings.size() - 1);
}

Result<ExprId> Parser::NewExpr(Expr e, const std::vector<ExprId>* list) {
  uint32_t child = 0;
  for (ExprId id : {e.left, e.right, e.third}) {
    if (id != kNoExpr) child = std::max(child, ast_->exprs[id].height);
  }
  if (list != nullptr) {
    e.list_begin = static_cast<uint32_t>(ast_->lists.size());
    e.list_size = static_cast<uint32_t>(list->size());
    for (ExprId id : *list) {
      if (id != kNoExpr) child = std::max(child, ast_->exprs[id].height);
      ast_->lists.push_back(id);
    }
  }
  e.height = std::max(e.height, child + 1);
  if (e.height > kMaxExprDepth) {
    return Status::SqlError("Expression tree is too large (maximum depth " +
                            std::to_string(kMaxExprDepth) + ")");
  }
  max_height_ = std::max(max_height_, e.height);
  // Room for a typical statement's nodes at the first one: one allocation,
  // not one per doubling (a statement prepared once per execution pays
  // each), and none for a statement without expressions (BEGIN, COMMIT).
  if (ast_->exprs.capacity() == 0) ast_->exprs.reserve(16);
  ast_->exprs.push_back(e);
  return static_cast<ExprId>(ast_->exprs.size() - 1);
}

Result<ExprId> Parser::NewSubquery(ExprKind kind, SelectId select, ExprId left, bool negated) {
  Expr e = Make(kind, 0, left);
  e.u.select = select;
  if (negated) e.flags |= Expr::kNegated;
  // A subquery is as tall as its tallest expression, plus one (SQLite's
  // heightOfSelect), so nesting subqueries counts against the same limit.
  e.height = last_select_height_ + 1;
  return NewExpr(e);
}

Result<ExprId> Parser::ParseExpr(int min_prec) {
  ENGINE_RETURN_IF_ERROR(EnterNesting());
  DepthGuard guard(*this);
  ENGINE_ASSIGN_OR_RETURN(ExprId left, ParseUnary());
  for (;;) {
    bool progressed = false;
    ENGINE_ASSIGN_OR_RETURN(left, ParseBinaryTail(left, min_prec, progressed));
    if (!progressed) return left;
  }
}

Result<ExprId> Parser::ParseUnary() {
  const TokenKind k = Peek().kind;
  UnaryOp op;
  int operand_prec = kPrecUnary;
  switch (k) {
    case TokenKind::kNot:
      op = UnaryOp::kNot;
      operand_prec = kPrecNot;
      break;
    case TokenKind::kMinus:
      op = UnaryOp::kNegate;
      break;
    case TokenKind::kPlus:
      op = UnaryOp::kPlus;
      break;
    case TokenKind::kBitNot:
      op = UnaryOp::kBitNot;
      break;
    default:
      return ParsePrimary();
  }
  Advance();
  ENGINE_ASSIGN_OR_RETURN(ExprId operand, ParseExpr(operand_prec));
  Expr& o = ast_->exprs[operand];
  if (op == UnaryOp::kNegate && o.kind == ExprKind::kReal && o.op == kRealFromInt64MinMagnitude) {
    o.kind = ExprKind::kInteger;
    o.op = 0;
    o.u.integer = std::numeric_limits<int64_t>::min();
    return operand;
  }
  return NewExpr(Make(ExprKind::kUnary, static_cast<uint8_t>(op), operand));
}

// Applies one binary or postfix operator of precedence >= min_prec to `left`,
// or leaves `progressed` false when the next token is not such an operator.
Result<ExprId> Parser::ParseBinaryTail(ExprId left, int min_prec, bool& progressed) {
  const Token t = Peek();
  auto binary = [&](BinaryOp op, int prec) -> Result<ExprId> {
    Advance();
    ENGINE_ASSIGN_OR_RETURN(ExprId right, ParseExpr(prec + 1));
    return NewExpr(Make(ExprKind::kBinary, Op(op), left, right));
  };
  auto like = [&](LikeOp op, bool negated) -> Result<ExprId> {
    Advance();
    ENGINE_ASSIGN_OR_RETURN(ExprId pattern, ParseExpr(kPrecCompare));
    ExprId escape = kNoExpr;
    if (Accept(TokenKind::kEscape)) {
      ENGINE_ASSIGN_OR_RETURN(escape, ParseExpr(kPrecCompare));
    }
    Expr e = Make(ExprKind::kLike, static_cast<uint8_t>(op), left, pattern, escape);
    if (negated) e.flags |= Expr::kNegated;
    return NewExpr(e);
  };
  auto between = [&](bool negated) -> Result<ExprId> {
    Advance();
    // The lower bound takes everything up to the AND, as the LALR parser
    // shifts there; the upper bound stops at operators of BETWEEN's level.
    ENGINE_ASSIGN_OR_RETURN(ExprId low, ParseExpr(kPrecEquality));
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAnd));
    ENGINE_ASSIGN_OR_RETURN(ExprId high, ParseExpr(kPrecCompare));
    Expr e = Make(ExprKind::kBetween, 0, left, low, high);
    if (negated) e.flags |= Expr::kNegated;
    return NewExpr(e);
  };
  auto is_null = [&](bool negated) -> Result<ExprId> {
    Expr e = Make(ExprKind::kIsNull, 0, left);
    if (negated) e.flags |= Expr::kNegated;
    return NewExpr(e);
  };

  int prec = 0;
  switch (t.kind) {
    case TokenKind::kOr:
      prec = kPrecOr;
      break;
    case TokenKind::kAnd:
      prec = kPrecAnd;
      break;
    case TokenKind::kEq:
    case TokenKind::kEqEq:
    case TokenKind::kNe:
    case TokenKind::kLtGt:
    case TokenKind::kIs:
    case TokenKind::kIsnull:
    case TokenKind::kNotnull:
    case TokenKind::kLike:
    case TokenKind::kGlob:
    case TokenKind::kMatch:
    case TokenKind::kRegexp:
    case TokenKind::kIn:
    case TokenKind::kBetween:
      prec = kPrecEquality;
      break;
    case TokenKind::kNot:
      switch (Peek(1).kind) {
        case TokenKind::kNull:
        case TokenKind::kLike:
        case TokenKind::kGlob:
        case TokenKind::kMatch:
        case TokenKind::kRegexp:
        case TokenKind::kIn:
        case TokenKind::kBetween:
          prec = kPrecEquality;
          break;
        default:
          // SQLite shifts the NOT, expecting one of the above, and fails on
          // the token after it.
          return SyntaxError(Peek(1));
      }
      break;
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
      prec = kPrecCompare;
      break;
    case TokenKind::kBitAnd:
    case TokenKind::kBitOr:
    case TokenKind::kShiftLeft:
    case TokenKind::kShiftRight:
      prec = kPrecBit;
      break;
    case TokenKind::kPlus:
    case TokenKind::kMinus:
      prec = kPrecAdd;
      break;
    case TokenKind::kStar:
    case TokenKind::kSlash:
    case TokenKind::kPercent:
      prec = kPrecMul;
      break;
    case TokenKind::kConcat:
      prec = kPrecConcat;
      break;
    case TokenKind::kCollate:
      prec = kPrecCollate;
      break;
    default:
      return left;
  }
  if (prec < min_prec) return left;
  progressed = true;

  switch (t.kind) {
    case TokenKind::kOr:
      return binary(BinaryOp::kOr, prec);
    case TokenKind::kAnd:
      return binary(BinaryOp::kAnd, prec);
    case TokenKind::kEq:
    case TokenKind::kEqEq:
      return binary(BinaryOp::kEq, prec);
    case TokenKind::kNe:
    case TokenKind::kLtGt:
      return binary(BinaryOp::kNe, prec);
    case TokenKind::kLt:
      return binary(BinaryOp::kLt, prec);
    case TokenKind::kLe:
      return binary(BinaryOp::kLe, prec);
    case TokenKind::kGt:
      return binary(BinaryOp::kGt, prec);
    case TokenKind::kGe:
      return binary(BinaryOp::kGe, prec);
    case TokenKind::kBitAnd:
      return binary(BinaryOp::kBitAnd, prec);
    case TokenKind::kBitOr:
      return binary(BinaryOp::kBitOr, prec);
    case TokenKind::kShiftLeft:
      return binary(BinaryOp::kShiftLeft, prec);
    case TokenKind::kShiftRight:
      return binary(BinaryOp::kShiftRight, prec);
    case TokenKind::kPlus:
      return binary(BinaryOp::kAdd, prec);
    case TokenKind::kMinus:
      return binary(BinaryOp::kSubtract, prec);
    case TokenKind::kStar:
      return binary(BinaryOp::kMultiply, prec);
    case TokenKind::kSlash:
      return binary(BinaryOp::kDivide, prec);
    case TokenKind::kPercent:
      return binary(BinaryOp::kRemainder, prec);
    case TokenKind::kConcat:
      return binary(BinaryOp::kConcat, prec);
    case TokenKind::kIsnull:
      Advance();
      return is_null(false);
    case TokenKind::kNotnull:
      Advance();
      return is_null(true);
    case TokenKind::kIs: {
      Advance();
      const bool negated = Accept(TokenKind::kNot);
      ENGINE_ASSIGN_OR_RETURN(ExprId right, ParseExpr(kPrecCompare));
      // As SQLite does, `x IS NULL` becomes the unary test.
      if (ast_->exprs[right].kind == ExprKind::kNull) return is_null(negated);
      return NewExpr(
          Make(ExprKind::kBinary, Op(negated ? BinaryOp::kIsNot : BinaryOp::kIs), left, right));
    }
    case TokenKind::kLike:
      return like(LikeOp::kLike, false);
    case TokenKind::kGlob:
      return like(LikeOp::kGlob, false);
    case TokenKind::kMatch:
      return like(LikeOp::kMatch, false);
    case TokenKind::kRegexp:
      return like(LikeOp::kRegexp, false);
    case TokenKind::kBetween:
      return between(false);
    case TokenKind::kIn:
      Advance();
      return ParseInTail(left, false);
    case TokenKind::kCollate: {
      Advance();
      ENGINE_ASSIGN_OR_RETURN(std::string name, ParseName());
      Expr e = Make(ExprKind::kCollate, 0, left);
      e.u.ids.a = AddString(std::move(name));
      return NewExpr(e);
    }
    case TokenKind::kNot: {
      Advance();
      switch (Peek().kind) {
        case TokenKind::kNull:
          Advance();
          return is_null(true);
        case TokenKind::kLike:
          return like(LikeOp::kLike, true);
        case TokenKind::kGlob:
          return like(LikeOp::kGlob, true);
        case TokenKind::kMatch:
          return like(LikeOp::kMatch, true);
        case TokenKind::kRegexp:
          return like(LikeOp::kRegexp, true);
        case TokenKind::kBetween:
          return between(true);
        default:
          Advance();
          return ParseInTail(left, true);  // kIn, checked above
      }
    }
    default:
      return ErrorNear();  // unreachable: every kind with a precedence is handled
  }
}

Result<ExprId> Parser::ParseInTail(ExprId left, bool negated) {
  if (!PeekIs(TokenKind::kLParen) && IsName(Peek())) {
    // "x IN t": SQLite reads a table name as (SELECT * FROM t); the planner
    // then wants t to have one column, as for any IN subquery.
    ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
    Select s;
    s.cores.emplace_back();
    ResultColumn star;
    star.kind = ResultColumn::Kind::kStar;
    s.cores[0].columns.push_back(std::move(star));
    TableRef ref;
    ref.schema = std::move(name.first);
    ref.name = std::move(name.second);
    s.cores[0].from.push_back(std::move(ref));
    ast_->selects.push_back(std::move(s));
    last_select_height_ = 0;
    return NewSubquery(ExprKind::kInSelect, static_cast<SelectId>(ast_->selects.size() - 1), left,
                       negated);
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (AtSelectStart()) {
    ENGINE_ASSIGN_OR_RETURN(SelectId select, ParseSelect());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    return NewSubquery(ExprKind::kInSelect, select, left, negated);
  }
  std::vector<ExprId> items;
  if (!PeekIs(TokenKind::kRParen)) {
    do {
      ENGINE_ASSIGN_OR_RETURN(ExprId item, ParseExpr());
      items.push_back(item);
    } while (Accept(TokenKind::kComma));
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  Expr e = Make(ExprKind::kInList, 0, left);
  if (negated) e.flags |= Expr::kNegated;
  return NewExpr(e, &items);
}

// Deep nesting recurses through this function, so it only dispatches: the
// work with big frames (literals, strings) happens in non-recursive helpers.
Result<ExprId> Parser::ParsePrimary() {
  switch (Peek().kind) {
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kString:
    case TokenKind::kBlob:
    case TokenKind::kNull:
    case TokenKind::kVariable:
      return ParseLiteral();
    case TokenKind::kLParen:
      return ParseParenthesized();
    case TokenKind::kCase:
      return ParseCase();
    case TokenKind::kExists:
      return ParseExists();
    default:
      break;
  }
  const Token& t = Peek();
  if (t.kind == TokenKind::kCast && PeekIs(TokenKind::kLParen, 1)) return ParseCast();
  if (IsTimeKeyword(t)) return ParseTimeKeyword();
  if (PeekIs(TokenKind::kLParen, 1) && IsWord(t, "RAISE")) return ParseRaise();
  if (PeekIs(TokenKind::kLParen, 1) && IsName(t) && t.kind != TokenKind::kString) {
    return ParseFunctionCall();
  }
  if (IsId(t)) return ParseColumnRef();
  return ErrorNear();
}

Result<ExprId> Parser::ParseLiteral() {
  const Token t = Advance();
  Expr e;
  switch (t.kind) {
    case TokenKind::kInteger:
    case TokenKind::kFloat:
      return ParseNumber(t);
    case TokenKind::kVariable:
      return ParseVariable(t);
    case TokenKind::kString:
      e.kind = ExprKind::kString;
      e.u.ids.a = AddString(DecodeString(Text(t)));
      return NewExpr(e);
    case TokenKind::kBlob:
      e.kind = ExprKind::kBlob;
      e.u.ids.a = AddString(DecodeBlob(Text(t)));
      return NewExpr(e);
    default:
      e.kind = ExprKind::kNull;
      return NewExpr(e);
  }
}

Result<ExprId> Parser::ParseExists() {
  Advance();  // EXISTS
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (!AtSelectStart()) return ErrorNear();
  ENGINE_ASSIGN_OR_RETURN(SelectId select, ParseSelect());
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return NewSubquery(ExprKind::kExists, select, kNoExpr, false);
}

Result<ExprId> Parser::ParseColumnRef() {
  const Token first = Advance();
  Expr e = Make(ExprKind::kColumn);
  e.u.ids.b = kNoStr;
  Token column = first;
  if (PeekIs(TokenKind::kDot)) {
    Advance();
    if (!IsName(Peek()) || PeekIs(TokenKind::kString)) return ErrorNear();
    column = Advance();
    e.u.ids.b = AddString(DecodeIdentifier(Text(first)));
  }
  if (Text(column).front() == '"') e.flags |= Expr::kDoubleQuoted;
  e.u.ids.a = AddString(DecodeIdentifier(Text(column)));
  ENGINE_ASSIGN_OR_RETURN(ExprId id, NewExpr(e));
  RecordOffset(id, first);
  return id;
}

Result<ExprId> Parser::ParseFunctionCall() {
  Expr e = Make(ExprKind::kFunction);
  const Token name = Advance();
  e.u.ids.a = AddString(DecodeIdentifier(Text(name)));
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  std::vector<ExprId> args;
  if (Accept(TokenKind::kStar)) {
    e.flags |= Expr::kStar;
  } else if (!PeekIs(TokenKind::kRParen)) {
    if (Accept(TokenKind::kDistinct)) {
      e.flags |= Expr::kDistinct;
    } else {
      Accept(TokenKind::kAll);
    }
    do {
      ENGINE_ASSIGN_OR_RETURN(ExprId arg, ParseExpr());
      args.push_back(arg);
    } while (Accept(TokenKind::kComma));
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  ENGINE_RETURN_IF_ERROR(ParseFunctionTail(e, name.offset));
  ENGINE_ASSIGN_OR_RETURN(ExprId id, NewExpr(e, &args));
  RecordOffset(id, name);
  return id;
}

void Parser::RecordOffset(ExprId id, const Token& at) {
  std::vector<uint32_t>& offsets = ast_->offsets;
  if (offsets.size() <= id) offsets.resize(size_t{id} + 1, Ast::kNoOffset);
  offsets[id] = at.offset;
}

Result<ExprId> Parser::ParseParenthesized() {
  Advance();  // (
  if (AtSelectStart()) {
    ENGINE_ASSIGN_OR_RETURN(SelectId select, ParseSelect());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    return NewSubquery(ExprKind::kSubquery, select, kNoExpr, false);
  }
  ENGINE_ASSIGN_OR_RETURN(ExprId inner, ParseExpr());
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return inner;
}

Result<ExprId> Parser::ParseCase() {
  Advance();  // CASE
  ExprId base = kNoExpr;
  if (!PeekIs(TokenKind::kWhen)) {
    ENGINE_ASSIGN_OR_RETURN(base, ParseExpr());
  }
  std::vector<ExprId> arms;
  if (!PeekIs(TokenKind::kWhen)) return ErrorNear();
  while (Accept(TokenKind::kWhen)) {
    ENGINE_ASSIGN_OR_RETURN(ExprId when, ParseExpr());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kThen));
    ENGINE_ASSIGN_OR_RETURN(ExprId then, ParseExpr());
    arms.push_back(when);
    arms.push_back(then);
  }
  ExprId otherwise = kNoExpr;
  if (Accept(TokenKind::kElse)) {
    ENGINE_ASSIGN_OR_RETURN(otherwise, ParseExpr());
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kEnd));
  return NewExpr(Make(ExprKind::kCase, 0, base, otherwise), &arms);
}

Result<ExprId> Parser::ParseCast() {
  Advance();  // CAST
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  ENGINE_ASSIGN_OR_RETURN(ExprId operand, ParseExpr());
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAs));
  ENGINE_ASSIGN_OR_RETURN(std::string type, ParseTypeName());
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  Expr e = Make(ExprKind::kCast, 0, operand);
  e.u.ids.a = AddString(std::move(type));
  return NewExpr(e);
}

Result<ExprId> Parser::ParseNumber(const Token& t) {
  const std::string_view text = Text(t);
  Expr e;
  if (t.kind == TokenKind::kInteger && text.size() > 2 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'X')) {
    std::string_view digits = text.substr(2);
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    if (digits.size() > 16) {
      return Status::SqlError("hex literal too big: " + std::string(text))
          .WithOffset(static_cast<int>(t.offset));
    }
    uint64_t v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
    e.kind = ExprKind::kInteger;
    e.u.integer = static_cast<int64_t>(v);  // two's complement, as SQLite reads hex
    return NewExpr(e);
  }
  if (t.kind == TokenKind::kInteger) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
    if (ec == std::errc() && ptr == text.data() + text.size()) {
      e.kind = ExprKind::kInteger;
      e.u.integer = v;
      return NewExpr(e);
    }
    // Too big for 64 bits: SQLite reads it as a real.
    std::string_view digits = text;
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    if (digits == "9223372036854775808") e.op = kRealFromInt64MinMagnitude;
  }
  e.kind = ExprKind::kReal;
  e.u.real = std::strtod(std::string(text).c_str(), nullptr);
  return NewExpr(e);
}

Result<ExprId> Parser::ParseVariable(const Token& t) {
  const std::string_view text = Text(t);
  std::vector<std::string>& names = *params_;
  uint32_t index = 0;
  if (text == "?") {
    names.emplace_back();
    index = static_cast<uint32_t>(names.size());
  } else if (text[0] == '?') {
    uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), n);
    if (ec != std::errc() || ptr != text.data() + text.size() || n < 1 || n > kMaxVariableNumber) {
      return Status::SqlError("variable number must be between ?1 and ?" +
                              std::to_string(kMaxVariableNumber));
    }
    index = static_cast<uint32_t>(n);
    if (names.size() < index) names.resize(index);
    if (names[index - 1].empty()) names[index - 1] = std::string(text);
  } else {
    auto [it, inserted] =
        named_params_.try_emplace(std::string(text), static_cast<uint32_t>(names.size() + 1));
    if (inserted) {
      if (names.size() >= kMaxVariableNumber) return Status::SqlError("too many SQL variables");
      names.emplace_back(text);
    }
    index = it->second;
  }
  if (names.size() > kMaxVariableNumber) return Status::SqlError("too many SQL variables");
  Expr e;
  e.kind = ExprKind::kParameter;
  e.u.ids.a = AddString(std::string(text));
  e.u.ids.b = index;
  ENGINE_ASSIGN_OR_RETURN(ExprId id, NewExpr(e));
  RecordOffset(id, t);  // sqlite3 points at a parameter CHECK refuses
  return id;
}

}  // namespace engine::sql
