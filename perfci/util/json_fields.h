// Reading a JSON object field by field with errors that say where in the
// document the problem is: "baselines/x/engine.json: provenance.commit:
// expected a string". Every perfci file format that a person may edit or a
// crash may truncate (perfci.json and its sections, results, baselines, the
// benchmark's and the hook's reports) is read through this, so every one
// words its errors the same way:
//
//   <origin>: <path>: <problem>
//
// where <origin> is the file (or whatever stands for it), <path> the field
// inside it ("suites[0].binary"), and <problem> one of "missing", "expected
// <what>" ("expected a string", "expected a non-empty string", "expected a
// number", "expected a positive number", "expected true or false", "expected
// a non-negative integer", "expected a positive integer", "expected an
// integer between 1 and 1000000", "expected an array", "expected a non-empty
// array", "expected an array of strings", "expected an object"), "unknown
// field (known: ...)", or a sentence of its own for a value of the right type
// that is still wrong.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/util/error.h"

namespace perfci {

class Fields {
 public:
  // `where` names the object: "<origin>" for a document's top level, or
  // "<origin>: <path>" (what where() returns) for an object inside it. An
  // origin is a file name and must not itself contain ": ".
  Fields(const nlohmann::json& j, std::string where)
      : j_(j), where_(std::move(where)), nested_(where_.find(": ") != std::string::npos) {
    check_object();
  }
  // The origin and the path apart. An empty origin leaves it to the caller
  // to put the file in front ("contracts[0].kind: missing"); an empty path is
  // the document's top level.
  Fields(const nlohmann::json& j, const std::string& origin, const std::string& path)
      : j_(j),
        where_(origin.empty() || path.empty() ? origin + path : origin + ": " + path),
        nested_(!path.empty()) {
    check_object();
  }

  // "<origin>: <path>.<key>: <problem>"; an empty key names the object itself.
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw Error(name(key) + ": " + problem);
  }
  bool has(const std::string& key) const { return j_.contains(key); }
  const nlohmann::json& at(const std::string& key) const {
    if (!j_.contains(key)) fail(key, "missing");
    return j_[key];
  }
  // A string; with allow_empty false also refuses "".
  std::string str(const std::string& key, bool allow_empty = true) const {
    const nlohmann::json& v = at(key);
    const char* expected = allow_empty ? "expected a string" : "expected a non-empty string";
    if (!v.is_string()) fail(key, expected);
    if (!allow_empty && v.get_ref<const std::string&>().empty()) fail(key, expected);
    return v.get<std::string>();
  }
  double num(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number()) fail(key, "expected a number");
    return v.get<double>();
  }
  double positive(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number() || v.get<double>() <= 0) fail(key, "expected a positive number");
    return v.get<double>();
  }
  bool boolean(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_boolean()) fail(key, "expected true or false");
    return v.get<bool>();
  }
  std::uint64_t count(const std::string& key) const {
    if (!is_count(at(key))) fail(key, "expected a non-negative integer");
    return j_[key].get<std::uint64_t>();
  }
  std::uint64_t positive_count(const std::string& key) const {
    if (!is_count(at(key)) || j_[key].get<std::uint64_t>() == 0)
      fail(key, "expected a positive integer");
    return j_[key].get<std::uint64_t>();
  }
  // An integer in [min, max].
  std::uint64_t count(const std::string& key, std::uint64_t min, std::uint64_t max) const {
    const nlohmann::json& v = at(key);
    if (!is_count(v) || v.get<std::uint64_t>() < min || v.get<std::uint64_t>() > max)
      fail(key,
           "expected an integer between " + std::to_string(min) + " and " + std::to_string(max));
    return v.get<std::uint64_t>();
  }
  const nlohmann::json& array(const std::string& key, bool allow_empty = true) const {
    const nlohmann::json& v = at(key);
    if (!v.is_array() || (!allow_empty && v.empty()))
      fail(key, allow_empty ? "expected an array" : "expected a non-empty array");
    return v;
  }
  const nlohmann::json& object(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_object()) fail(key, "expected an object");
    return v;
  }
  // An array of strings; with allow_empty false no string may be "" (the
  // error names the item: "args[2]: expected a non-empty string").
  std::vector<std::string> strings(const std::string& key, bool allow_empty = true) const {
    const nlohmann::json& list = at(key);
    if (!list.is_array()) fail(key, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const nlohmann::json& v = list[i];
      if (!v.is_string()) fail(key, "expected an array of strings");
      if (!allow_empty && v.get_ref<const std::string&>().empty())
        fail(key + "[" + std::to_string(i) + "]", "expected a non-empty string");
      out.push_back(v.get<std::string>());
    }
    return out;
  }
  // Refuses a key outside `known`: "<key>: unknown field (known: a, b)".
  void only(std::initializer_list<const char*> known) const {
    for (const auto& item : j_.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || item.key() == k;
      if (ok) continue;
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(item.key(), "unknown field (known: " + list + ")");
    }
  }

  // Where a member is, to read it with a Fields of its own or to pass on.
  std::string where(const std::string& key, std::size_t i) const {
    return name(key) + "[" + std::to_string(i) + "]";
  }
  std::string where(const std::string& key) const { return name(key); }

 private:
  void check_object() const {
    if (!j_.is_object()) fail("", "expected an object");
  }
  static bool is_count(const nlohmann::json& v) {
    return v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0);
  }
  std::string name(const std::string& key) const {
    if (key.empty()) return where_;
    if (where_.empty()) return key;
    return where_ + (nested_ ? "." : ": ") + key;
  }

  const nlohmann::json& j_;
  std::string where_;
  bool nested_;  // where_ already holds a path: members follow a '.'
};

}  // namespace perfci
