// Renders parse trees back to SQL, for EXPLAIN output, error messages and
// tests. Every compound expression is parenthesised, so the output shows
// exactly how the parser grouped the operators and parses back to the same tree.
#pragma once

#include <string>
#include <string_view>

#include "engine/sql/ast.h"

namespace engine::sql {

std::string RenderExpr(const Ast& ast, ExprId id);
std::string RenderSelect(const Ast& ast, SelectId id);
// An identifier as SQL: bare when that is unambiguous, else "double-quoted".
std::string QuoteIdentifier(std::string_view name);
// A string as a SQL literal: 'it''s'.
std::string QuoteString(std::string_view text);
// A real the way SQL can read it back exactly (always with '.' or 'e').
std::string RenderReal(double value);

}  // namespace engine::sql
