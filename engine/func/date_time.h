// SQLite 3.40's date and time functions (lang_datefunc.html): date, time,
// datetime, julianday, unixepoch and strftime, and the functions behind the
// CURRENT_DATE / CURRENT_TIME / CURRENT_TIMESTAMP keywords. The parsing of
// time values and modifiers is in date_time_value.h.
#pragma once

#include <cstdint>

#include "engine/func/value_arena.h"
#include "engine/status.h"
#include "engine/value.h"

namespace engine::func {

Status DateFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status TimeFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status DateTimeFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status JulianDayFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status UnixEpochFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status StrftimeFunction(const Value* args, int n, ValueArena& arena, Value* out);
// CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP: date(), time() and
// datetime() of 'now', which sqlite3 allows even in a CHECK constraint.
Status CurrentDateFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status CurrentTimeFunction(const Value* args, int n, ValueArena& arena, Value* out);
Status CurrentTimestampFunction(const Value* args, int n, ValueArena& arena, Value* out);

namespace internal {
// The statement's 'now' (julian day in ms), 0 until read. Per thread: a
// statement runs on the thread that steps it.
inline constinit thread_local int64_t statement_time_ms = 0;
// Non-null while an expression that must be deterministic is evaluated:
// what it is, for the error ("a CHECK constraint").
inline constinit thread_local const char* pure_context = nullptr;
}  // namespace internal

// While one lives, the date and time functions refuse 'now' and the
// 'localtime' / 'utc' modifiers as sqlite3 does in `context`:
// "non-deterministic use of date() in a CHECK constraint".
class PureContext {
 public:
  explicit PureContext(const char* context) : saved_(internal::pure_context) {
    internal::pure_context = context;
  }
  ~PureContext() { internal::pure_context = saved_; }
  PureContext(const PureContext&) = delete;
  PureContext& operator=(const PureContext&) = delete;

 private:
  const char* saved_;
};

// 'now' is read from the clock once per statement execution and then holds,
// as SQLite's holds within one sqlite3_step: the executor calls this when an
// execution starts, and the clock is read lazily, by the first 'now' (a
// statement that never asks pays one store).
inline void BeginStatementTime() { internal::statement_time_ms = 0; }
// The statement's 'now' as a julian day in milliseconds.
int64_t StatementTimeMs();

}  // namespace engine::func
