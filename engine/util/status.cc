#include "engine/status.h"

namespace engine {

Status::Rep* Status::Clone(const Rep& r) { return new Rep(r); }

void Status::Free(Rep* r) { delete r; }

const std::string& Status::message() const {
  static const std::string kNone;
  return rep_ ? rep_->msg : kNone;
}

std::string Status::ToString() const {
  const char* kind = "";
  switch (code()) {
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
  return kind + rep_->msg;
}

}  // namespace engine
