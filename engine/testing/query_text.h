// What a statement returns, as text, for tests that compare plans and rows
// with the words sqlite3 prints: one string per row, columns joined by '|'.
// Failures are test failures (EXPECT), never an exception.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"

namespace engine::testing {

// Every row of `sql`, columns joined by '|'.
inline std::vector<std::string> QueryText(Database& db, const std::string& sql) {
  std::vector<std::string> out;
  auto st = db.Prepare(sql);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
  if (!st.ok()) return out;
  while (true) {
    auto r = (*st)->Step();
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok() || !*r) break;
    std::string line;
    for (int i = 0; i < (*st)->column_count(); ++i) {
      if (i > 0) line += "|";
      line += std::string((*st)->column_text(i));
    }
    out.push_back(line);
  }
  return out;
}

// The detail column of EXPLAIN QUERY PLAN `sql`, one string per plan row.
inline std::vector<std::string> PlanText(Database& db, const std::string& sql) {
  std::vector<std::string> out;
  auto st = db.Prepare("EXPLAIN QUERY PLAN " + sql);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
  if (!st.ok()) return out;
  while (true) {
    auto r = (*st)->Step();
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok() || !*r) break;
    out.emplace_back((*st)->column_text(3));
  }
  return out;
}

}  // namespace engine::testing
