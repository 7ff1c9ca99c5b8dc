// libFuzzer entry point for the whole engine behind the API: planner,
// executor, DML, DDL, transactions and the storage they write. The input is
// an SQL script; engine/testing/exec_fuzz_input.h says how it runs and what
// must hold afterwards (the real SQLite's integrity_check on the file among
// it). Inputs too costly to bound are rejected (-1), so they never enter
// the corpus.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/testing/exec_fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static engine::testing::ExecFuzzInput runner;
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  if (!engine::testing::ExecFuzzInput::Accept(sql)) return -1;
  const std::string failure = runner.Run(sql);
  if (!failure.empty()) {
    std::fprintf(stderr, "%s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
