// Validates a file that perfci wrote against its schema in reports/schema/
// (expect_valid_report: a report, against report.schema.json)
// with tests/schema_check.py (Debian's python3-jsonschema): the script that
// checks every other perfci format against its schema, so the documented
// schemas and what perfci writes cannot drift apart. REPORT_SCHEMA and
// SCHEMA_CHECK are the paths CMake passes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/util/subprocess.h"

inline void expect_valid(const std::filesystem::path& file, const char* schema) {
  perfci::SubprocessOptions o;
  o.argv = {"/usr/bin/python3", SCHEMA_CHECK, "valid", schema, file.string()};
  auto r = perfci::run_subprocess(o);
  EXPECT_TRUE(r.ok()) << file << " does not match " << schema << ": " << r.describe() << "\n"
                      << r.out << r.err_tail;
}

#ifdef REPORT_SCHEMA
inline void expect_valid_report(const std::filesystem::path& report) {
  expect_valid(report, REPORT_SCHEMA);
}
#endif
