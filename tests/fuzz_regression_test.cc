// Replays every input the fuzz targets once failed on (a crash, a sanitizer
// report, a broken invariant), so that the fix stays fixed in the ordinary
// test build: tests/fuzz_regressions/parser/ for engine_sql_parser_fuzz,
// tests/fuzz_regressions/exec/ for engine_sql_exec_fuzz. The checks are the
// fuzz targets' own (engine/testing/*_fuzz_input.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/testing/exec_fuzz_input.h"
#include "engine/testing/parser_fuzz_input.h"

namespace engine {
namespace {

struct Input {
  std::string name;
  std::string bytes;
};

std::vector<Input> Inputs(const std::string& kind) {
  std::vector<Input> out;
  const std::filesystem::path dir = std::filesystem::path(FUZZ_REGRESSIONS_DIR) / kind;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    out.push_back(
        {entry.path().filename().string(),
         std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())});
  }
  std::sort(out.begin(), out.end(), [](const Input& a, const Input& b) { return a.name < b.name; });
  return out;
}

TEST(FuzzRegressionTest, ParserInputs) {
  // Empty until the parser target first fails: nothing to replay yet.
  for (const Input& in : Inputs("parser")) {
    EXPECT_EQ(testing::CheckParserInput(in.bytes), "") << in.name;
  }
}

TEST(FuzzRegressionTest, ExecInputs) {
  const std::vector<Input> inputs = Inputs("exec");
  EXPECT_FALSE(inputs.empty());
  testing::ExecFuzzInput runner;
  for (const Input& in : inputs) {
    ASSERT_TRUE(testing::ExecFuzzInput::Accept(in.bytes)) << in.name;
    EXPECT_EQ(runner.Run(in.bytes), "") << in.name;
  }
}

}  // namespace
}  // namespace engine
