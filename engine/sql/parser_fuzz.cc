// libFuzzer entry point for the SQL front end: any bytes must parse or fail
// with an error, and whatever parses must render to SQL that parses again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  engine::Result<std::vector<engine::sql::Statement>> script = engine::sql::ParseScript(sql);
  if (!script.ok()) {
    if (script.status().message().empty()) std::abort();  // every error explains itself
    return 0;
  }
  for (const engine::sql::Statement& st : *script) {
    const auto* select = st.as<engine::sql::SelectStmt>();
    if (select == nullptr) continue;
    const std::string rendered = engine::sql::RenderSelect(st.ast, select->select);
    engine::Result<engine::sql::Statement> again = engine::sql::ParseStatement(rendered);
    // Rendering adds parentheses, so a tree near the depth limit may not fit
    // once rendered; any other failure to parse our own output is a bug.
    if (!again.ok() && again.status().message().find("too large") == std::string::npos) {
      std::abort();
    }
  }
  return 0;
}
