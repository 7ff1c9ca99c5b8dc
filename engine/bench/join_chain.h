// Issue 14's many-table join, as SQL text: a chain of ten-row tables,
// t{k}.nxt naming a row of t{k+1} through its INTEGER PRIMARY KEY, queried
// as a scrambled FROM list with the equalities in WHERE. One definition for
// the benchmark (join_chain_bench.cc) and the planner's test of its plan
// (engine/planner/join_order_test.cc).
#pragma once

#include <string>

namespace bench {

inline constexpr int kChainRowsPerTable = 10;

// Tables t0..t{n-1}, in one transaction.
inline std::string ChainSchemaAndRows(int n) {
  std::string sql = "BEGIN;";
  for (int i = 0; i < n; ++i) {
    const std::string t = "t" + std::to_string(i);
    sql += "CREATE TABLE " + t + "(id INTEGER PRIMARY KEY, nxt INTEGER, v TEXT);";
    for (int r = 0; r < kChainRowsPerTable; ++r) {
      sql += "INSERT INTO " + t + " VALUES (" + std::to_string(r) + ", " +
             std::to_string((r * 7 + i) % kChainRowsPerTable) + ", '" + t + "r" +
             std::to_string(r) + "');";
    }
  }
  return sql + "COMMIT;";
}

// count(*) and sum(t{n-1}.id) over the first n tables of the chain. FROM is
// in a scrambled order: 37 is prime to every n used (16, 32, 64), so
// i -> (37 i + 11) mod n is a permutation. Every row of t0 starts one chain.
inline std::string ChainQuery(int n) {
  std::string from;
  for (int i = 0; i < n; ++i) from += (i > 0 ? ", t" : "t") + std::to_string((i * 37 + 11) % n);
  std::string where;
  for (int k = 0; k + 1 < n; ++k) {
    where +=
        (k > 0 ? " AND t" : "t") + std::to_string(k) + ".nxt = t" + std::to_string(k + 1) + ".id";
  }
  return "SELECT count(*), sum(t" + std::to_string(n - 1) + ".id) FROM " + from + " WHERE " + where;
}

}  // namespace bench
