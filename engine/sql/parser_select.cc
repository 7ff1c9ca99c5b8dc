// SELECT: compound selects, result columns, FROM with joins, WHERE, GROUP BY,
// HAVING, ORDER BY, LIMIT/OFFSET, and VALUES as a select.
#include <algorithm>

#include "engine/sql/parser.h"

namespace engine::sql {
namespace {

constexpr size_t kMaxCompoundSelect = 500;  // SQLITE_MAX_COMPOUND_SELECT

}  // namespace

bool Parser::AtSelectStart(int ahead) {
  const TokenKind k = Peek(ahead).kind;
  return k == TokenKind::kSelect || k == TokenKind::kValues || k == TokenKind::kWith;
}

namespace {

// A keyword-like word written in any case ("indexed", "INDEXED").
bool WordIs(std::string_view text, std::string_view upper) {
  if (text.size() != upper.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i] >= 'a' && text[i] <= 'z' ? static_cast<char>(text[i] - 32) : text[i];
    if (c != upper[i]) return false;
  }
  return true;
}

}  // namespace

Result<SelectId> Parser::ParseSelect() {
  ENGINE_RETURN_IF_ERROR(EnterNesting());
  DepthGuard guard(*this);
  const uint32_t outer_height = max_height_;
  max_height_ = 0;

  Select s;
  s.with = pending_with_;
  pending_with_ = -1;
  if (s.with < 0 && PeekIs(TokenKind::kWith)) {
    ENGINE_ASSIGN_OR_RETURN(s.with, ParseWith());
  }
  for (;;) {
    if (s.cores.size() >= kMaxCompoundSelect) {
      return Status::SqlError("too many terms in compound SELECT");
    }
    s.cores.emplace_back();
    ENGINE_RETURN_IF_ERROR(ParseSelectCore(s.cores.back()));
    ENGINE_RETURN_IF_ERROR(ParseOrderByAndLimit(s));
    CompoundOp op;
    std::string_view op_name;
    if (PeekIs(TokenKind::kUnion) && PeekIs(TokenKind::kAll, 1)) {
      op = CompoundOp::kUnionAll;
      op_name = "UNION ALL";
    } else if (PeekIs(TokenKind::kUnion)) {
      op = CompoundOp::kUnion;
      op_name = "UNION";
    } else if (PeekIs(TokenKind::kIntersect)) {
      op = CompoundOp::kIntersect;
      op_name = "INTERSECT";
    } else if (PeekIs(TokenKind::kExcept)) {
      op = CompoundOp::kExcept;
      op_name = "EXCEPT";
    } else {
      break;
    }
    // SQLite's grammar takes ORDER BY and LIMIT on every term and then
    // rejects them on all but the last, with this message.
    if (!s.order_by.empty() || s.limit != kNoExpr) return CompoundAfterOrderBy(s, op_name);
    Advance();
    if (op == CompoundOp::kUnionAll) Advance();
    s.ops.push_back(op);
  }
  ast_->selects.push_back(std::move(s));
  last_select_height_ = max_height_;
  max_height_ = std::max(outer_height, max_height_);
  return static_cast<SelectId>(ast_->selects.size() - 1);
}

Status Parser::CompoundAfterOrderBy(const Select& s, std::string_view op_name) {
  return Status::SqlError(std::string(s.order_by.empty() ? "LIMIT" : "ORDER BY") +
                          " clause should come after " + std::string(op_name) + " not before");
}

Status Parser::ParseOrderByAndLimit(Select& s) {
  if (Accept(TokenKind::kOrder)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBy));
    ENGINE_RETURN_IF_ERROR(ParseOrderBy(s.order_by));
  }
  if (Accept(TokenKind::kLimit)) {
    ENGINE_ASSIGN_OR_RETURN(s.limit, ParseExpr());
    if (Accept(TokenKind::kOffset)) {
      ENGINE_ASSIGN_OR_RETURN(s.offset, ParseExpr());
    } else if (Accept(TokenKind::kComma)) {
      // LIMIT a, b means OFFSET a LIMIT b.
      s.offset = s.limit;
      ENGINE_ASSIGN_OR_RETURN(s.limit, ParseExpr());
    }
  }
  return Status::OK();
}

Status Parser::ParseSelectCore(SelectCore& core) {
  if (PeekIs(TokenKind::kValues)) return ParseValuesCore(core);
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kSelect));
  if (Accept(TokenKind::kDistinct)) {
    core.distinct = true;
  } else {
    Accept(TokenKind::kAll);
  }
  do {
    ENGINE_RETURN_IF_ERROR(ParseResultColumn(core));
  } while (Accept(TokenKind::kComma));
  if (Accept(TokenKind::kFrom)) ENGINE_RETURN_IF_ERROR(ParseFrom(core.from));
  if (Accept(TokenKind::kWhere)) {
    ENGINE_ASSIGN_OR_RETURN(core.where, ParseExpr());
  }
  if (Accept(TokenKind::kGroup)) {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBy));
    do {
      ENGINE_ASSIGN_OR_RETURN(ExprId e, ParseExpr());
      core.group_by.push_back(e);
    } while (Accept(TokenKind::kComma));
  }
  if (Accept(TokenKind::kHaving)) {
    ENGINE_ASSIGN_OR_RETURN(core.having, ParseExpr());
  }
  if (AtWindowClause()) ENGINE_RETURN_IF_ERROR(ParseWindowClause(core));
  return Status::OK();
}

Status Parser::ParseValuesCore(SelectCore& core) {
  Advance();  // VALUES
  do {
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    std::vector<ExprId> row;
    // Every row has the first one's width: one allocation a row.
    row.reserve(core.values.empty() ? 8 : core.values.front().size());
    do {
      ENGINE_ASSIGN_OR_RETURN(ExprId e, ParseExpr());
      row.push_back(e);
    } while (Accept(TokenKind::kComma));
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    if (!core.values.empty() && core.values.front().size() != row.size()) {
      return Status::SqlError("all VALUES must have the same number of terms");
    }
    core.values.push_back(std::move(row));
  } while (Accept(TokenKind::kComma));
  return Status::OK();
}

Status Parser::ParseResultColumn(SelectCore& core) {
  ResultColumn col;
  if (Accept(TokenKind::kStar)) {
    col.kind = ResultColumn::Kind::kStar;
    col.source_text = "*";
    core.columns.push_back(std::move(col));
    return Status::OK();
  }
  if (IsName(Peek()) && PeekIs(TokenKind::kDot, 1) && PeekIs(TokenKind::kStar, 2)) {
    const Token table = Advance();
    Advance();
    Advance();
    col.kind = ResultColumn::Kind::kTableStar;
    col.table = DecodeIdentifier(Text(table));
    col.source_text = std::string(sql_.substr(table.offset, last_end_ - table.offset));
    core.columns.push_back(std::move(col));
    return Status::OK();
  }
  const uint32_t start = Peek().offset;
  ENGINE_ASSIGN_OR_RETURN(col.expr, ParseExpr());
  col.source_text = std::string(sql_.substr(start, last_end_ - start));
  ENGINE_ASSIGN_OR_RETURN(col.alias, ParseOptionalAlias());
  core.columns.push_back(std::move(col));
  return Status::OK();
}

Result<std::string> Parser::ParseOptionalAlias() {
  if (Accept(TokenKind::kAs)) return ParseName();
  const Token& t = Peek();
  if (AtWindowClause()) return std::string();  // FROM t WINDOW w AS (...)
  if (IsId(t) || t.kind == TokenKind::kString) return DecodeIdentifier(Text(Advance()));
  return std::string();
}

bool Parser::IsJoinKeyword(const Token& t) {
  switch (t.kind) {
    case TokenKind::kLeft:
    case TokenKind::kRight:
    case TokenKind::kFull:
    case TokenKind::kInner:
    case TokenKind::kCross:
    case TokenKind::kNatural:
    case TokenKind::kOuter:
      return true;
    default:
      return false;
  }
}

// parse.y's joinop: JOIN | JOIN_KW [nm [nm]] JOIN, where the words are then
// checked the way sqlite3JoinType checks them.
Result<std::optional<JoinType>> Parser::ParseJoinOperator() {
  if (Accept(TokenKind::kComma)) return std::optional<JoinType>(JoinType::kComma);
  if (Accept(TokenKind::kJoin)) return std::optional<JoinType>(JoinType::kInner);
  if (!IsJoinKeyword(Peek())) return std::optional<JoinType>();
  std::vector<Token> words = {Advance()};
  while (words.size() < 3 && !PeekIs(TokenKind::kJoin) && IsName(Peek()))
    words.push_back(Advance());
  ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kJoin));
  enum : unsigned {
    kInner = 1,
    kCross = 2,
    kNatural = 4,
    kLeft = 8,
    kRight = 16,
    kOuter = 32,
    kError = 64
  };
  unsigned flags = 0;
  std::string spelled;
  for (const Token& w : words) {
    if (!spelled.empty()) spelled += ' ';
    spelled += Text(w);
    switch (w.kind) {
      case TokenKind::kInner:
        flags |= kInner;
        break;
      case TokenKind::kCross:
        flags |= kInner | kCross;
        break;
      case TokenKind::kNatural:
        flags |= kNatural;
        break;
      case TokenKind::kLeft:
        flags |= kLeft | kOuter;
        break;
      case TokenKind::kRight:
        flags |= kRight | kOuter;
        break;
      case TokenKind::kFull:
        flags |= kLeft | kRight | kOuter;
        break;
      case TokenKind::kOuter:
        flags |= kOuter;
        break;
      default:
        flags |= kError;
        break;
    }
  }
  if ((flags & (kInner | kOuter)) == (kInner | kOuter) || (flags & kError) != 0 ||
      (flags & (kOuter | kLeft | kRight)) == kOuter) {
    return Status::SqlError("unknown join type: " + spelled)
        .WithOffset(static_cast<int>(words[0].offset));
  }
  if ((flags & kRight) != 0) {
    return Status::NotSupported("RIGHT and FULL OUTER JOINs are not supported");
  }
  JoinType type = JoinType::kInner;
  if ((flags & kNatural) != 0) {
    type = (flags & kLeft) != 0 ? JoinType::kNaturalLeft : JoinType::kNatural;
  } else if ((flags & kLeft) != 0) {
    type = JoinType::kLeft;
  } else if ((flags & kCross) != 0) {
    type = JoinType::kCross;
  }
  return std::optional<JoinType>(type);
}

Status Parser::ParseFrom(std::vector<TableRef>& refs) {
  ENGINE_ASSIGN_OR_RETURN(TableRef first, ParseTableRef());
  refs.push_back(std::move(first));
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(std::optional<JoinType> join, ParseJoinOperator());
    if (!join) return Status::OK();
    ENGINE_ASSIGN_OR_RETURN(TableRef ref, ParseTableRef());
    ref.join = *join;
    ENGINE_RETURN_IF_ERROR(ParseJoinConstraint(ref));
    refs.push_back(std::move(ref));
  }
}

Status Parser::ParseJoinConstraint(TableRef& ref) {
  if (Accept(TokenKind::kOn)) {
    ENGINE_ASSIGN_OR_RETURN(ref.on, ParseExpr());
  } else if (Accept(TokenKind::kUsing)) {
    ENGINE_RETURN_IF_ERROR(ParseNameList(ref.using_columns));
  }
  return Status::OK();
}

Result<TableRef> Parser::ParseTableRef() {
  TableRef ref;
  ENGINE_RETURN_IF_ERROR(ParseTableRefSource(ref));
  if (!AtIndexedBy()) {
    ENGINE_ASSIGN_OR_RETURN(ref.alias, ParseOptionalAlias());
  }
  if (ref.kind == TableRef::Kind::kTable) {
    ENGINE_RETURN_IF_ERROR(ParseIndexedBy(&ref.indexed_by, &ref.not_indexed));
  }
  return ref;
}

bool Parser::AtIndexedBy() {
  const Token& t = Peek();
  return t.kind == TokenKind::kIdentifier && WordIs(Text(t), "INDEXED");
}

Status Parser::ParseIndexedBy(std::string* indexed_by, bool* not_indexed) {
  if (AtIndexedBy()) {
    Advance();
    ENGINE_RETURN_IF_ERROR(Expect(TokenKind::kBy));
    ENGINE_ASSIGN_OR_RETURN(*indexed_by, ParseName());
  } else if (PeekIs(TokenKind::kNot) && Peek(1).kind == TokenKind::kIdentifier &&
             WordIs(Text(Peek(1)), "INDEXED")) {
    Advance();
    Advance();
    *not_indexed = true;
  }
  return Status::OK();
}

// Subqueries and parenthesised joins nest through here; each level counts
// against the depth limit, like an expression level.
Status Parser::ParseTableRefSource(TableRef& ref) {
  ENGINE_RETURN_IF_ERROR(EnterNesting());
  DepthGuard guard(*this);
  if (!Accept(TokenKind::kLParen)) {
    ENGINE_ASSIGN_OR_RETURN(auto name, ParseQualifiedName());
    ref.schema = std::move(name.first);
    ref.name = std::move(name.second);
    return Status::OK();
  }
  if (AtSelectStart()) {
    ref.kind = TableRef::Kind::kSubquery;
    ENGINE_ASSIGN_OR_RETURN(ref.select, ParseSelect());
  } else {
    ref.kind = TableRef::Kind::kGroup;
    ENGINE_RETURN_IF_ERROR(ParseFrom(ref.group));
  }
  return Expect(TokenKind::kRParen);
}

Status Parser::ParseOrderBy(std::vector<OrderingTerm>& terms) {
  do {
    OrderingTerm term;
    ENGINE_ASSIGN_OR_RETURN(term.expr, ParseExpr());
    ENGINE_ASSIGN_OR_RETURN(term.order, ParseSortOrder());
    if (Accept(TokenKind::kNulls)) {
      if (Accept(TokenKind::kFirst)) {
        term.nulls = NullsOrder::kFirst;
      } else if (Accept(TokenKind::kLast)) {
        term.nulls = NullsOrder::kLast;
      } else {
        return ErrorNear();
      }
    }
    terms.push_back(term);
  } while (Accept(TokenKind::kComma));
  return Status::OK();
}

Result<SortOrder> Parser::ParseSortOrder() {
  if (Accept(TokenKind::kAsc)) return SortOrder::kAsc;
  if (Accept(TokenKind::kDesc)) return SortOrder::kDesc;
  return SortOrder::kDefault;
}

}  // namespace engine::sql
