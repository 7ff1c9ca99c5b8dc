// Gallery case 5: an executor rebuilt on every execution of a prepared
// statement (TPC-C behind SQLite). The good build plans once, at prepare,
// and re-runs the plan; the regressed one rebuilds the operator tree in
// every execute(): allocations per execution, in Statement::build_plan.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "perfci/bench.h"

namespace gallery {

struct Operator {
  virtual ~Operator() = default;
  virtual std::int64_t run(std::int64_t input) const = 0;
};
struct Filter final : Operator {
  std::int64_t modulus;
  explicit Filter(std::int64_t m) : modulus(m) {}
  std::int64_t run(std::int64_t x) const override { return x % modulus == 0 ? x : 0; }
};
struct Project final : Operator {
  std::int64_t scale;
  explicit Project(std::int64_t s) : scale(s) {}
  std::int64_t run(std::int64_t x) const override { return x * scale; }
};

class Statement {
 public:
  Statement() {
#if !GALLERY_REGRESSED
    build_plan();
#endif
  }

  __attribute__((noinline)) std::int64_t execute(std::int64_t param) {
#if GALLERY_REGRESSED
    build_plan();  // the executor rebuilt on every execution
#endif
    std::int64_t acc = param;
    for (const auto& op : plan_) acc += op->run(acc + param);
    return acc;
  }

 private:
  __attribute__((noinline)) void build_plan() {
    plan_.clear();
    for (std::int64_t i = 1; i <= 4; ++i) {
      plan_.push_back(std::make_unique<Filter>(i + 1));
      plan_.push_back(std::make_unique<Project>(i));
    }
  }
  std::vector<std::unique_ptr<Operator>> plan_;
};

}  // namespace gallery

static void BM_prepared_execute(benchmark::State& state) {
  gallery::Statement stmt;
  std::int64_t param = 0;
  perfci::BenchHook hook(state);
  for (auto _ : state) benchmark::DoNotOptimize(stmt.execute(++param));
}
BENCHMARK(BM_prepared_execute);

BENCHMARK_MAIN();
