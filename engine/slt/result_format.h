// Turns result rows into the strings sqllogictest compares, exactly as its
// SQLite driver (slt_sqlite.c) prints them: NULL as "NULL", '' as "(empty)",
// I columns through sqlite3_column_int64, R columns as "%.3f" of
// sqlite3_column_double, T columns as sqlite3_column_text with bytes outside
// ' '..'~' shown as '@'. Then the rows are ordered per the sort mode.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/slt/record.h"
#include "engine/slt/value.h"

namespace engine::slt {

// `type` is 'I', 'R' or 'T'; anything else formats like 'T'.
std::string FormatValue(const Value& value, char type);

// Rows of values to the flat list of strings, sorted per `sort` (rowsort
// compares rows column by column with strcmp, valuesort sorts every value).
std::vector<std::string> FormatResult(const std::vector<std::vector<Value>>& rows,
                                      std::string_view types, SortMode sort);

// Sorts already formatted values, `columns` per row.
void SortResult(std::vector<std::string>& values, size_t columns, SortMode sort);

// A real as SQLite's text conversion writes it ("%!.15g": 1.0, 0.1, 1.0e+20).
std::string SqliteRealText(double value);
// sqlite3_column_int64 / sqlite3_column_double of a text value: the numeric
// prefix, 0 when there is none.
int64_t SqliteTextToInt64(std::string_view text);
double SqliteTextToDouble(std::string_view text);
// sqlite3_column_int64 of a real: truncation, clamped to the int64 range.
int64_t SqliteRealToInt64(double value);

}  // namespace engine::slt
