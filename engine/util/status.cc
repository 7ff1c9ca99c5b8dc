#include "engine/status.h"

namespace engine {

std::string Status::ToString() const {
  const char* kind = "";
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kCorruption:
      kind = "Corruption: ";
      break;
    case Code::kIOError:
      kind = "IO error: ";
      break;
    case Code::kInvalidArgument:
      kind = "Invalid argument: ";
      break;
    case Code::kNotFound:
      kind = "Not found: ";
      break;
    case Code::kConstraint:
      kind = "Constraint: ";
      break;
    case Code::kBusy:
      kind = "Busy: ";
      break;
    case Code::kSqlError:
      kind = "SQL error: ";
      break;
    case Code::kRange:
      kind = "Range: ";
      break;
    case Code::kNotSupported:
      kind = "Not supported: ";
      break;
  }
  return kind + msg_;
}

}  // namespace engine
