#include "engine/shell/error_report.h"

#include <array>

namespace engine::shell {
namespace {

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// Errors the engine reports with the generic SQL error code whose SQLite
// result code is another one.
struct MessageCode {
  std::string_view message;
  int code;
};
constexpr std::array<MessageCode, 4> kMessageCodes = {{
    {"datatype mismatch", 20},                    // SQLITE_MISMATCH
    {"string or blob too big", 18},               // SQLITE_TOOBIG
    {"database or disk is full", 13},             // SQLITE_FULL
    {"attempt to write a readonly database", 8},  // SQLITE_READONLY
}};

int CodeOfMessage(const Status& st) {
  for (const MessageCode& m : kMessageCodes) {
    if (st.message() == m.message) return m.code;
  }
  return 1;
}

// SQL errors that SQLite, too, finds only while stepping.
constexpr std::array<std::string_view, 16> kRuntimeMessages = {
    "integer overflow",
    "datatype mismatch",
    "string or blob too big",
    "database or disk is full",
    "ESCAPE expression must be a single character",
    "LIKE or GLOB pattern too complex",
    "cannot start a transaction within a transaction",
    "cannot commit - no transaction is active",
    "cannot rollback - no transaction is active",
    "argument of ntile must be a positive integer",
    "second argument to nth_value must be a positive integer",
    "frame starting offset must be a non-negative integer",
    "frame ending offset must be a non-negative integer",
    "frame starting offset must be a non-negative number",
    "frame ending offset must be a non-negative number",
    "too many levels of trigger recursion",
};

}  // namespace

int ResultCode(const Status& st) {
  switch (st.code()) {
    case Status::Code::kOk:
      return 0;
    case Status::Code::kConstraint:
      return 19;
    case Status::Code::kCorruption:
      return 11;
    case Status::Code::kIOError:
      return 10;
    case Status::Code::kBusy:
      return 5;
    case Status::Code::kRange:
      return 25;
    case Status::Code::kSqlError:
    case Status::Code::kInvalidArgument:  // the pager's refusal to write
      return CodeOfMessage(st);
    default:
      return 1;
  }
}

bool IsPrepareError(const Status& st) {
  if (st.code() != Status::Code::kSqlError) return false;
  // A date function's 'now' in a CHECK constraint, found when a row is written.
  if (st.message().starts_with("non-deterministic use of ")) return false;
  for (std::string_view m : kRuntimeMessages) {
    if (st.message() == m) return false;
  }
  return true;
}

std::string ErrorContext(std::string_view sql, int offset) {
  // sqlite3 sees a C string: it ends at the first NUL.
  sql = sql.substr(0, sql.find('\0'));
  if (offset < 0 || static_cast<size_t>(offset) >= sql.size()) return "";
  // Long statements are shown from 50 bytes before the error on, without
  // splitting a UTF-8 character; at most 78 bytes of them.
  size_t start = 0;
  int at = offset;
  while (at > 50) {
    --at;
    ++start;
    while (start < sql.size() && IsContinuationByte(sql[start])) {
      ++start;
      --at;
    }
  }
  std::string_view shown = sql.substr(start);
  size_t len = shown.size();
  if (len > 78) {
    len = 78;
    while (len > 0 && IsContinuationByte(shown[len])) --len;
  }
  std::string out = "\n  ";
  for (char c : shown.substr(0, len)) out += IsSpace(c) ? ' ' : c;
  out += "\n  ";
  if (at < 25) {
    out.append(static_cast<size_t>(at), ' ');
    out += "^--- error here";
  } else {
    out.append(static_cast<size_t>(at - 14), ' ');
    out += "error here ---^";
  }
  return out;
}

std::string ErrorBody(const Status& st, bool prepare, std::string_view sql) {
  std::string out = st.message();
  const int code = ResultCode(st);
  if (code > 1) out += " (" + std::to_string(code) + ")";
  // sqlite3 has the statement's text at hand only for prepare errors.
  if (prepare) out += ErrorContext(sql, st.offset());
  return out;
}

}  // namespace engine::shell
