// Reading a JSON object field by field with errors that say where in the
// document the problem is: "baselines/x/engine.json: provenance.commit:
// expected a string". Every perfci file format that a person may edit or a
// crash may truncate (results, baselines) is read through this.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/util/error.h"

namespace perfci {

class Fields {
 public:
  // `where` names the object: the file, then the path inside it.
  Fields(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) fail("", "expected an object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw Error(where_ + (key.empty() ? "" : "." + key) + ": " + problem);
  }
  bool has(const char* key) const { return j_.contains(key); }
  const nlohmann::json& at(const char* key) const {
    if (!j_.contains(key)) fail(key, "missing");
    return j_[key];
  }
  std::string str(const char* key, bool allow_empty = true) const {
    const nlohmann::json& v = at(key);
    if (!v.is_string()) fail(key, "expected a string");
    if (!allow_empty && v.get_ref<const std::string&>().empty()) fail(key, "empty");
    return v.get<std::string>();
  }
  double num(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number()) fail(key, "expected a number");
    return v.get<double>();
  }
  bool boolean(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_boolean()) fail(key, "expected true or false");
    return v.get<bool>();
  }
  std::uint64_t count(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
      fail(key, "expected a non-negative integer");
    return v.get<std::uint64_t>();
  }
  const nlohmann::json& array(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_array()) fail(key, "expected an array");
    return v;
  }
  const nlohmann::json& object(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_object()) fail(key, "expected an object");
    return v;
  }
  std::vector<std::string> strings(const char* key) const {
    std::vector<std::string> out;
    for (const auto& v : array(key)) {
      if (!v.is_string()) fail(key, "expected an array of strings");
      out.push_back(v.get<std::string>());
    }
    return out;
  }
  std::string where(const char* key, std::size_t i) const {
    return where_ + "." + key + "[" + std::to_string(i) + "]";
  }
  std::string where(const char* key) const { return where_ + "." + key; }

 private:
  const nlohmann::json& j_;
  std::string where_;
};

}  // namespace perfci
