#include "engine/slt/result_hash.h"

#include <md5.h>

#include <cstdint>

namespace engine::slt {

std::string HashResult(const std::vector<std::string>& values) {
  MD5_CTX ctx;
  MD5Init(&ctx);
  static const uint8_t kNewline = '\n';
  for (const std::string& v : values) {
    MD5Update(&ctx, reinterpret_cast<const uint8_t*>(v.data()), v.size());
    MD5Update(&ctx, &kNewline, 1);
  }
  char hex[MD5_DIGEST_STRING_LENGTH];
  MD5End(&ctx, hex);
  return std::string(hex);
}

std::vector<std::string> ResultLines(const std::vector<std::string>& values, int hash_threshold) {
  if (hash_threshold > 0 && values.size() > static_cast<size_t>(hash_threshold)) {
    return {std::to_string(values.size()) + " values hashing to " + HashResult(values)};
  }
  return values;
}

bool MatchesExpected(const Record& query, const std::vector<std::string>& values) {
  if (query.expects_hash) {
    return values.size() == query.hash_count && HashResult(values) == query.hash;
  }
  return values == query.expected;
}

}  // namespace engine::slt
