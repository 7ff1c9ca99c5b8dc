#include "engine/testing/parser_fuzz_input.h"

#include <vector>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::testing {

std::string CheckParserInput(std::string_view sql) {
  Result<std::vector<sql::Statement>> script = sql::ParseScript(sql);
  if (!script.ok()) {
    if (script.status().message().empty()) return "an error without a message";
    if (script.status().offset() >= static_cast<int>(sql.size())) {
      return "error offset past the text: " + script.status().message();
    }
    return "";
  }
  for (const sql::Statement& st : *script) {
    const auto* select = st.as<sql::SelectStmt>();
    if (select == nullptr) continue;
    const std::string rendered = sql::RenderSelect(st.ast, select->select);
    Result<sql::Statement> again = sql::ParseStatement(rendered);
    // Rendering adds parentheses, so a tree near the depth limit may not fit
    // once rendered; any other failure to parse our own output is a bug.
    if (!again.ok() && again.status().message().find("too large") == std::string::npos) {
      return "rendered SELECT does not parse: " + again.status().message() + "\n" + rendered;
    }
  }
  return "";
}

}  // namespace engine::testing
