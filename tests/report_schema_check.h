// Validates a report that perfci wrote against reports/schema/report.schema.json
// with tests/schema_check.py (Debian's python3-jsonschema): the script that
// checks every other perfci format against its schema, so the documented
// schemas and what perfci writes cannot drift apart. REPORT_SCHEMA and
// SCHEMA_CHECK are the paths CMake passes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>

#include "perfci/util/subprocess.h"

inline void expect_valid_report(const std::filesystem::path& report) {
  perfci::SubprocessOptions o;
  o.argv = {"/usr/bin/python3", SCHEMA_CHECK, "valid", REPORT_SCHEMA, report.string()};
  auto r = perfci::run_subprocess(o);
  EXPECT_TRUE(r.ok()) << report << " does not match " << REPORT_SCHEMA << ": " << r.describe()
                      << "\n"
                      << r.out << r.err_tail;
}
