#include "engine/shell/shell.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "engine/shell/error_report.h"
#include "engine/shell/query_plan.h"

namespace engine::shell {

namespace {

// A line of only spaces and complete comments: sqlite3 skips it rather than
// start a statement there (which would move the line number it reports).
bool IsBlankLine(std::string_view line) {
  size_t i = 0;
  while (i < line.size()) {
    if (IsSpace(line[i])) {
      ++i;
    } else if (line.substr(i, 2) == "--") {
      return true;
    } else if (line.substr(i, 2) == "/*") {
      const size_t end = line.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

bool IsComplete(std::string_view sql) {
  bool complete = false;
  size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      while (i < sql.size() && sql[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      const size_t end = sql.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`' || c == '[') {
      const char close = c == '[' ? ']' : c;
      size_t j = i + 1;
      while (j < sql.size() && sql[j] != close) ++j;
      if (j >= sql.size()) return false;
      i = j + 1;
      complete = false;
      continue;
    }
    complete = c == ';';
    ++i;
  }
  return complete;
}

void Shell::ReportError(const Status& st, bool prepare, std::string_view sql, int line,
                        bool command_mode) {
  const std::string body = ErrorBody(st, prepare, sql);
  if (command_mode) {
    err_ << "Error: " << (prepare ? "in prepare, " : "stepping, ") << body << "\n";
  } else {
    err_ << (prepare ? "Parse error" : "Runtime error") << " near line " << line << ": " << body
         << "\n";
  }
}

bool Shell::RunChunk(std::string_view sql, int first_line, bool command_mode, int* code) {
  if (db_ == nullptr) {  // only after a `.open` whose fallback failed too
    err_ << "Error: no database is open\n";
    *code = 1;
    return false;
  }
  size_t pos = 0;
  std::string line_buf;
  while (pos < sql.size()) {
    // Like shell.c's shell_exec(): each statement after the first starts
    // past the whitespace (not the comments) that follows the previous one,
    // and an error's context is shown from there.
    if (pos > 0) {
      while (pos < sql.size() && IsSpace(sql[pos])) ++pos;
      if (pos == sql.size()) break;
    }
    const std::string_view text = sql.substr(pos);
    size_t tail = 0;
    auto stmt = db_->Prepare(text, &tail);
    if (!stmt.ok()) {
      *code = ResultCode(stmt.status());
      ReportError(stmt.status(), /*prepare=*/true, text, first_line, command_mode);
      return false;
    }
    if (!*stmt) break;
    Statement& s = **stmt;
    // sqlite3 draws a query plan as a tree once all its rows are in.
    const bool plan = s.explains_query_plan();
    std::vector<QueryPlanRow> plan_rows;
    for (;;) {
      auto r = s.Step();
      if (!r.ok()) {
        *code = ResultCode(r.status());
        ReportError(r.status(), IsPrepareError(r.status()), text, first_line, command_mode);
        return false;
      }
      if (!*r) break;
      if (plan) {
        plan_rows.push_back({s.column_int(0), s.column_int(1), std::string(s.column_text(3))});
        continue;
      }
      line_buf.clear();
      for (int i = 0; i < s.column_count(); ++i) {
        if (i > 0) line_buf += '|';
        // sqlite3 prints sqlite3_column_text() with %s: numbers as SQLite
        // renders them, NULL as the empty string, TEXT and BLOB bytes up to
        // the first NUL.
        const std::string_view cell = s.column_text(i);
        line_buf.append(cell.substr(0, cell.find('\0')));
      }
      line_buf += '\n';
      out_ << line_buf;
    }
    if (plan) out_ << RenderQueryPlan(plan_rows);
    if (tail == 0) break;
    pos += tail;
  }
  return true;
}

void Shell::Tables(const std::string& pattern) {
  std::string sql =
      "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%'";
  if (!pattern.empty()) sql += " AND name LIKE ?1";
  sql += " ORDER BY 1";
  auto stmt = db_->Prepare(sql);
  if (!stmt.ok() || !*stmt) return;
  // ?1 is in the SQL above whenever there is a pattern: the bind cannot fail.
  if (!pattern.empty()) (void)(*stmt)->BindText(1, pattern);
  std::vector<std::string> names;
  for (;;) {
    auto r = (*stmt)->Step();
    if (!r.ok() || !*r) break;
    names.emplace_back((*stmt)->column_text(0));
  }
  if (names.empty()) return;
  size_t maxlen = 0;
  for (const auto& n : names) maxlen = std::max(maxlen, n.size());
  size_t ncol = 80 / (maxlen + 2);
  if (ncol < 1) ncol = 1;
  const size_t nrow = (names.size() + ncol - 1) / ncol;
  for (size_t i = 0; i < nrow; ++i) {
    std::string line;
    for (size_t j = i; j < names.size(); j += nrow) {
      if (j >= nrow) line += "  ";
      line += names[j];
      line.append(maxlen - names[j].size(), ' ');
    }
    out_ << line << "\n";
  }
}

void Shell::Schema(const std::string& pattern) {
  std::string sql =
      "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'";
  if (!pattern.empty()) sql += " AND (tbl_name LIKE ?1 OR name LIKE ?1)";
  sql += " ORDER BY rowid";
  auto stmt = db_->Prepare(sql);
  if (!stmt.ok() || !*stmt) return;
  // ?1 is in the SQL above whenever there is a pattern: the bind cannot fail.
  if (!pattern.empty()) (void)(*stmt)->BindText(1, pattern);
  for (;;) {
    auto r = (*stmt)->Step();
    if (!r.ok() || !*r) break;
    out_ << (*stmt)->column_text(0) << ";\n";
  }
}

DatabaseOptions Shell::OpenOptions() {
  DatabaseOptions o;
  o.uri = true;
  return o;
}

bool Shell::OpenCommand(const std::vector<std::string>& args) {
  // shell.c's optionMatch: "-x" and "--x" are the same option.
  auto option = [](const std::string& a) -> std::string_view {
    std::string_view v = a;
    if (v.empty() || v[0] != '-') return {};
    v.remove_prefix(v.size() > 1 && v[1] == '-' ? 2 : 1);
    return v;
  };
  bool fresh = false;
  bool read_only = false;
  bool have_file = false;
  std::string file;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string_view opt = option(args[i]);
    if (opt == "new") {
      fresh = true;
    } else if (opt == "readonly") {
      read_only = true;
    } else if (opt == "append" || opt == "zip" || opt == "deserialize" || opt == "hexdb" ||
               opt == "maxsize" || opt == "nofollow") {
      err_ << "Error: .open --" << opt << " is not supported by engine-shell\n";
      return false;
    } else if (!args[i].empty() && args[i][0] == '-') {
      err_ << "unknown option: " << args[i] << "\n";
      return false;
    } else if (have_file) {
      err_ << "extra argument: \"" << args[i] << "\"\n";
      return false;
    } else {
      file = args[i];
      have_file = true;
    }
  }
  // The old database is closed first, as sqlite3 closes it.
  db_ = nullptr;
  owned_.reset();
  DatabaseOptions opts = OpenOptions();
  opts.read_only = read_only;
  // Without a name: a fresh temporary database, as sqlite3 opens.
  if (have_file && fresh) (void)std::remove(file.c_str());  // --new: a missing file is fine
  auto db = Database::Open(have_file ? file : "", opts);
  if (!db.ok()) {
    // sqlite3 reports it and goes on with an in-memory database; the script's
    // exit status does not change.
    err_ << "Error: unable to open database \"" << file << "\": " << db.status().message() << "\n";
    db = Database::Open(":memory:", OpenOptions());
    if (!db.ok()) {
      err_ << "Error: " << db.status().message() << "\n";
      return false;
    }
  }
  owned_ = std::move(*db);
  db_ = owned_.get();
  return true;
}

bool Shell::DotCommand(const std::string& line) {
  std::vector<std::string> args;
  size_t i = 1;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    if (line[i] == '"' || line[i] == '\'') {
      const char q = line[i];
      j = line.find(q, i + 1);
      if (j == std::string::npos) j = line.size();
      args.push_back(line.substr(i + 1, j - i - 1));
      i = j + 1;
      continue;
    }
    while (j < line.size() && !IsSpace(line[j])) ++j;
    args.push_back(line.substr(i, j - i));
    i = j;
  }
  if (args.empty()) return true;
  if (db_ == nullptr && (args[0] == "tables" || args[0] == "schema")) {
    err_ << "Error: no database is open\n";
    return false;
  }
  if (args[0] == "tables") {
    Tables(args.size() > 1 ? args[1] : "");
    return true;
  }
  if (args[0] == "schema") {
    Schema(args.size() > 1 ? args[1] : "");
    return true;
  }
  // sqlite3 takes any prefix of two letters or more.
  if (args[0].size() >= 2 && std::string_view("open").substr(0, args[0].size()) == args[0]) {
    return OpenCommand(args);
  }
  err_ << "Error: unknown command or invalid arguments:  \"" << args[0]
       << "\". Enter \".help\" for help\n";
  return false;
}

int Shell::RunScript(std::istream& in) {
  // Chunks are built as shell.c's process_input() builds them, because
  // error messages quote them: the first line without its leading
  // whitespace, then whole lines joined by '\n', no newline at the end.
  std::string chunk;
  std::string line;
  int line_no = 0;
  int chunk_line = 0;  // errors name the line where the chunk began
  int status = 0;
  int code = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (chunk.empty()) {
      if (!line.empty() && line[0] == '.') {
        if (!DotCommand(line)) status = 1;
        continue;
      }
      if (!line.empty() && line[0] == '#') continue;  // a shell comment
      if (IsBlankLine(line)) continue;
      size_t k = 0;
      while (k < line.size() && IsSpace(line[k])) ++k;
      chunk.assign(line, k, std::string::npos);
      chunk_line = line_no;
    } else {
      chunk += '\n';
      chunk += line;
    }
    if (IsComplete(chunk)) {
      if (!RunChunk(chunk, chunk_line, false, &code)) status = 1;
      chunk.clear();
    }
  }
  if (!chunk.empty()) {
    if (!RunChunk(chunk, chunk_line, false, &code)) status = 1;
  }
  out_.flush();
  return status;
}

int Shell::RunCommand(std::string_view sql) {
  if (!sql.empty() && sql[0] == '.') {
    return DotCommand(std::string(sql)) ? 0 : 1;
  }
  int code = 0;
  const bool ok = RunChunk(sql, 1, true, &code);
  out_.flush();
  return ok ? 0 : (code == 0 ? 1 : code);
}

}  // namespace engine::shell
