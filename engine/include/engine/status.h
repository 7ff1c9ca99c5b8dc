// Errors as values: every fallible engine call returns a Status or a
// Result<T>. Corrupt files and bad SQL must never crash the process, so
// nothing in the engine throws across its API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace engine {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kCorruption,
    kIOError,
    kInvalidArgument,
    kNotFound,
    kConstraint,
    kBusy,
    kSqlError,
    kRange,
    kNotSupported
  };

  Status() = default;
  static Status OK() { return Status(); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status Constraint(std::string msg) { return Status(Code::kConstraint, std::move(msg)); }
  static Status Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
  static Status SqlError(std::string msg) { return Status(Code::kSqlError, std::move(msg)); }
  static Status Range(std::string msg) { return Status(Code::kRange, std::move(msg)); }
  static Status NotSupported(std::string msg) {
    return Status(Code::kNotSupported, std::move(msg));
  }

  // An OK Status is a null pointer: constructing, testing and destroying it
  // is a store, a test and a test, which every call on the hot paths pays
  // (a code, an offset and a std::string in place took ~10 instructions a
  // pass, and 40 bytes through the hidden return pointer).
  Status(const Status& o) : rep_(o.rep_ ? Clone(*o.rep_) : nullptr) {}
  Status& operator=(const Status& o) {
    if (this != &o) Status(o).swap(*this);
    return *this;
  }
  Status& operator=(Status&& o) noexcept {
    Status(std::move(o)).swap(*this);
    return *this;
  }
  // Always inline, and a test: clang kept a defaulted destructor
  // (unique_ptr's delete of a Rep with a std::string) out of line, and a
  // plain inline one out of line in the executor's larger functions: a
  // call per Status passed.
  [[gnu::always_inline]] ~Status() {
    if (rep_ != nullptr) [[unlikely]]
      Free(rep_);
  }
  [[gnu::always_inline]] Status(Status&& o) noexcept : rep_(o.rep_) { o.rep_ = nullptr; }
  void swap(Status& o) noexcept { std::swap(rep_, o.rep_); }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  bool IsCorruption() const { return code() == Code::kCorruption; }
  bool IsNotFound() const { return code() == Code::kNotFound; }
  bool IsConstraint() const { return code() == Code::kConstraint; }
  const std::string& message() const;

  // Where in the SQL text the error lies, as sqlite3_error_offset() tells
  // it: a byte offset into the text that was prepared, or -1. The shell
  // prints it as sqlite3's "^--- error here" caret. An OK Status has none.
  int offset() const { return rep_ ? rep_->offset : -1; }
  Status WithOffset(int offset) && {
    if (rep_) rep_->offset = offset;
    return std::move(*this);
  }

  // "Corruption: page 7 out of range" — the kind and the message.
  std::string ToString() const;

 private:
  struct Rep {
    Code code;
    int offset;
    std::string msg;
  };
  Status(Code code, std::string msg) : rep_(new Rep{code, -1, std::move(msg)}) {}
  static Rep* Clone(const Rep& r);
  static void Free(Rep* r);
  Rep* rep_ = nullptr;
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace engine

// Propagates a non-OK Status to the caller.
#define ENGINE_RETURN_IF_ERROR(expr) \
  do {                               \
    ::engine::Status _st = (expr);   \
    if (!_st.ok()) return _st;       \
  } while (0)

#define ENGINE_CONCAT_INNER(a, b) a##b
#define ENGINE_CONCAT(a, b) ENGINE_CONCAT_INNER(a, b)
// ENGINE_ASSIGN_OR_RETURN(auto x, f()) — binds the value or returns the error.
#define ENGINE_ASSIGN_OR_RETURN(lhs, expr) \
  ENGINE_ASSIGN_OR_RETURN_IMPL(ENGINE_CONCAT(_res_, __LINE__), lhs, expr)
#define ENGINE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()
