// Window syntax (SQLite's windowfunctions.html): a call's FILTER (WHERE ...)
// and OVER clauses, window definitions with their frames, and the WINDOW
// clause of a SELECT. The words (OVER, PARTITION, ROWS, ...) are not tokens
// of their own: as in SQLite they stay usable as names, and are recognised
// only where the grammar expects them.
#include "engine/sql/parser.h"
#include "engine/util/ascii.h"

namespace engine::sql {

bool Parser::PeekWord(std::string_view word, int ahead) {
  const Token& t = Peek(ahead);
  return IsId(t) && EqualsNoCaseAscii(Text(t), word);
}

bool Parser::AcceptWord(std::string_view word) {
  if (!PeekWord(word)) return false;
  Advance();
  return true;
}

Status Parser::ExpectWord(std::string_view word) {
  if (AcceptWord(word)) return Status::OK();
  return ErrorNear();
}

bool Parser::AtWindowClause() {
  return PeekWord("WINDOW") && IsName(Peek(1)) && PeekIs(TokenKind::kAs, 2);
}

Status Parser::ParseFunctionTail(Expr& e, uint32_t name_offset) {
  if (PeekWord("FILTER") && PeekIs(TokenKind::kLParen, 1)) {
    Advance();
    Advance();
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kWhere));
    ENGINE_ASSIGN_OR_RETURN(e.third, ParseExpr());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  if (!PeekWord("OVER") || !(PeekIs(TokenKind::kLParen, 1) || IsName(Peek(1)))) {
    return Status::OK();
  }
  Advance();  // OVER
  uint32_t index;
  if (Accept(TokenKind::kLParen)) {
    ENGINE_ASSIGN_OR_RETURN(index, ParseWindowDefn());
  } else {
    WindowDef def;
    ENGINE_ASSIGN_OR_RETURN(def.base, ParseName());
    def.bare_name = true;
    index = static_cast<uint32_t>(ast_->windows.size());
    ast_->windows.push_back(std::move(def));
  }
  ast_->windows[index].offset = name_offset;
  e.flags |= Expr::kOver;
  e.u.ids.b = index;
  // FILTER comes before OVER: after it, it is no alias either (parse.y).
  if (PeekWord("FILTER") && PeekIs(TokenKind::kLParen, 1)) return ErrorNear();
  return Status::OK();
}

// After the '(': [base] [PARTITION BY ...] [ORDER BY ...] [frame] ')'.
Result<uint32_t> Parser::ParseWindowDefn() {
  WindowDef def;
  if (IsId(Peek()) && !PeekWord("PARTITION") && !PeekWord("ROWS") && !PeekWord("RANGE") &&
      !PeekWord("GROUPS")) {
    def.base = DecodeIdentifier(Text(Advance()));
  }
  if (AcceptWord("PARTITION")) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBy));
    do {
      ENGINE_ASSIGN_OR_RETURN(ExprId e, ParseExpr());
      def.partition_by.push_back(e);
    } while (Accept(TokenKind::kComma));
  }
  if (Accept(TokenKind::kOrder)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBy));
    ENGINE_RETURN_IF_ERROR(ParseOrderBy(def.order_by));
  }
  if (PeekWord("ROWS") || PeekWord("RANGE") || PeekWord("GROUPS")) {
    def.has_frame = true;
    def.unit = AcceptWord("ROWS")    ? FrameUnit::kRows
               : AcceptWord("RANGE") ? FrameUnit::kRange
                                     : (Advance(), FrameUnit::kGroups);
    if (Accept(TokenKind::kBetween)) {
      ENGINE_RETURN_IF_ERROR(ParseFrameBound(true, &def.start, &def.start_expr));
      ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAnd));
      ENGINE_RETURN_IF_ERROR(ParseFrameBound(false, &def.end, &def.end_expr));
    } else {
      ENGINE_RETURN_IF_ERROR(ParseFrameBound(true, &def.start, &def.start_expr));
      def.end = FrameBound::kCurrentRow;
    }
    // A frame may not end before it starts (CURRENT ROW or N FOLLOWING up
    // to N PRECEDING, N FOLLOWING up to CURRENT ROW): SQLite's parser
    // refuses it, in an unused WINDOW definition too.
    if (static_cast<int>(def.start) > static_cast<int>(def.end)) {
      return Status::SqlError("unsupported frame specification");
    }
    if (AcceptWord("EXCLUDE")) {
      def.has_exclude = true;
      if (AcceptWord("NO")) {
        ENGINE_RETURN_IF_ERROR(ExpectWord("OTHERS"));
        def.exclude = FrameExclude::kNoOthers;
      } else if (AcceptWord("CURRENT")) {
        ENGINE_RETURN_IF_ERROR(ExpectWord("ROW"));
        def.exclude = FrameExclude::kCurrentRow;
      } else if (Accept(TokenKind::kGroup)) {
        def.exclude = FrameExclude::kGroup;
      } else if (AcceptWord("TIES")) {
        def.exclude = FrameExclude::kTies;
      } else {
        return ErrorNear();
      }
    }
  }
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  const uint32_t index = static_cast<uint32_t>(ast_->windows.size());
  ast_->windows.push_back(std::move(def));
  return index;
}

// parse.y's frame_bound_s (start) and frame_bound_e (end): UNBOUNDED
// PRECEDING only starts a frame, UNBOUNDED FOLLOWING only ends one.
Status Parser::ParseFrameBound(bool start, FrameBound* bound, ExprId* expr) {
  if (PeekWord("UNBOUNDED")) {
    Advance();
    if (start) {
      ENGINE_RETURN_IF_ERROR(ExpectWord("PRECEDING"));
      *bound = FrameBound::kUnboundedPreceding;
    } else {
      ENGINE_RETURN_IF_ERROR(ExpectWord("FOLLOWING"));
      *bound = FrameBound::kUnboundedFollowing;
    }
    return Status::OK();
  }
  if (PeekWord("CURRENT") && PeekWord("ROW", 1)) {
    Advance();
    Advance();
    *bound = FrameBound::kCurrentRow;
    return Status::OK();
  }
  ENGINE_ASSIGN_OR_RETURN(*expr, ParseExpr());
  if (AcceptWord("PRECEDING")) {
    *bound = FrameBound::kPreceding;
  } else if (AcceptWord("FOLLOWING")) {
    *bound = FrameBound::kFollowing;
  } else {
    return ErrorNear();
  }
  return Status::OK();
}

Status Parser::ParseWindowClause(SelectCore& core) {
  Advance();  // WINDOW
  do {
    ENGINE_ASSIGN_OR_RETURN(std::string name, ParseName());
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kAs));
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    ENGINE_ASSIGN_OR_RETURN(uint32_t index, ParseWindowDefn());
    ast_->windows[index].name = std::move(name);
    core.windows.push_back(index);
  } while (Accept(TokenKind::kComma));
  return Status::OK();
}

}  // namespace engine::sql
