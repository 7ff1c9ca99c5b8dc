// SQLite 3.40's deterministic built-in scalar functions, looked up by name
// and argument count at plan time and called per row through a plain
// function pointer. TEXT/BLOB results view either an argument's bytes or
// bytes placed in the row's ValueArena. Left out: functions that are not
// deterministic or need the connection (random, randomblob, changes,
// last_insert_rowid, total_changes, sqlite_version). The math functions of
// Debian's build (math_functions.h) are included, and the date and time
// functions (date_time.h), whose 'now' holds for one statement execution.
#pragma once

#include <string_view>

#include "engine/func/collation.h"
#include "engine/func/value_arena.h"
#include "engine/status.h"
#include "engine/value.h"

namespace engine::func {

// Evaluates f(args[0..n)) into *out. Errors carry SQLite's message
// ("integer overflow", "string or blob too big", ...).
using ScalarFn = Status (*)(const Value* args, int n, ValueArena& arena, Value* out);
// The same for a function that compares its arguments, under a collation.
using CollatedFn = Status (*)(const Value* args, int n, Collation coll, ValueArena& arena,
                              Value* out);

struct ScalarFunction {
  constexpr ScalarFunction(std::string_view n, int lo, int hi, ScalarFn f, CollatedFn c = nullptr)
      : name(n), min_args(lo), max_args(hi), fn(f), collated(c) {}

  std::string_view name;  // lower case
  int min_args;
  int max_args;  // -1: no upper bound
  ScalarFn fn;
  // Set for the functions that compare TEXT arguments (min, max, nullif:
  // SQLite's SQLITE_FUNC_NEEDCOLL); `fn` is this under BINARY.
  CollatedFn collated = nullptr;
};

// The function `name` (any letter case) accepting n arguments, or nullptr.
const ScalarFunction* FindScalarFunction(std::string_view name, int n);

// Like FindScalarFunction, with SQLite's errors: "no such function: NAME",
// "wrong number of arguments to function NAME()" (also for an aggregate's
// name used with a count no form of it takes). Resolve aggregates first:
// min(x) and max(x) with one argument are aggregates.
Status LookupScalarFunction(std::string_view name, int n, const ScalarFunction** out);

// Every registered function, for listings and tests.
const ScalarFunction* ScalarFunctionsBegin();
const ScalarFunction* ScalarFunctionsEnd();

}  // namespace engine::func
