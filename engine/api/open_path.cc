#include "engine/api/open_path.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace engine {
namespace {

// sqlite3_open_v2's flag bits, so that the mode rules read as main.c's do.
constexpr int kReadOnly = 0x01;
constexpr int kReadWrite = 0x02;
constexpr int kCreate = 0x04;
constexpr int kMemory = 0x80;
constexpr int kModeMask = kReadOnly | kReadWrite | kCreate | kMemory;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

struct ParsedUri {
  std::string file;
  std::vector<std::pair<std::string, std::string>> params;
};

// The decoding loop of sqlite3ParseUri, on the text after "file:" and the
// authority: %HH decoded (an invalid escape stays as it is; %00 drops the
// rest of the name, key or value it is in), '?' starts the query, '&'
// separates parameters, '=' a key from its value, '#' ends it all; a
// parameter with an empty key is dropped.
ParsedUri DecodeUri(std::string_view s) {
  ParsedUri out;
  enum State { kPath, kKey, kValue } state = kPath;
  std::string* cur = &out.file;
  size_t i = 0;
  while (i < s.size() && s[i] != '#') {
    char c = s[i++];
    if (c == '%' && i + 1 < s.size() && HexValue(s[i]) >= 0 && HexValue(s[i + 1]) >= 0) {
      const int octet = HexValue(s[i]) * 16 + HexValue(s[i + 1]);
      i += 2;
      if (octet == 0) {
        while (i < s.size() && s[i] != '#' && (state != kPath || s[i] != '?') &&
               (state != kKey || (s[i] != '=' && s[i] != '&')) &&
               (state != kValue || s[i] != '&')) {
          ++i;
        }
        continue;
      }
      cur->push_back(static_cast<char>(octet));
      continue;
    }
    if (state == kKey && (c == '&' || c == '=')) {
      if (cur->empty()) {
        // An empty key: the parameter is ignored up to the next '&'.
        out.params.pop_back();
        while (i < s.size() && s[i] != '#' && s[i - 1] != '&') ++i;
        state = kKey;
        out.params.emplace_back();
        cur = &out.params.back().first;
        continue;
      }
      if (c == '&') {
        out.params.emplace_back();  // a key without a value: its value is ""
        cur = &out.params.back().first;
      } else {
        state = kValue;
        cur = &out.params.back().second;
      }
      continue;
    }
    if ((state == kPath && c == '?') || (state == kValue && c == '&')) {
      state = kKey;
      out.params.emplace_back();
      cur = &out.params.back().first;
      continue;
    }
    cur->push_back(c);
  }
  // A trailing parameter with an empty key is none.
  if (!out.params.empty() && out.params.back().first.empty()) out.params.pop_back();
  return out;
}

Status ApplyParams(const ParsedUri& uri, int* flags, bool* shared_cache) {
  std::string_view vfs;
  for (const auto& [key, value] : uri.params) {
    if (key == "vfs") {
      vfs = value;
    } else if (key == "cache") {
      if (value != "shared" && value != "private") {
        return Status::SqlError("no such cache mode: " + value);
      }
      *shared_cache = value == "shared";
    } else if (key == "mode") {
      int mode = 0;
      if (value == "ro") mode = kReadOnly;
      if (value == "rw") mode = kReadWrite;
      if (value == "rwc") mode = kReadWrite | kCreate;
      if (value == "memory") mode = kMemory;
      if (mode == 0) return Status::SqlError("no such access mode: " + value);
      // A URI may narrow what the caller opened with, never widen it.
      if ((mode & ~kMemory) > (*flags & kModeMask)) {
        return Status::InvalidArgument("access mode not allowed: " + value);
      }
      *flags = (*flags & ~kModeMask) | mode;
    }
    // Every other parameter is the VFS's business; sqlite3's unix VFS reads
    // a few (immutable, nolock, psow) that change nothing a reader of the
    // file can see, and ignores the rest. So does the engine.
  }
  if (vfs.empty() || vfs == "unix") return Status::OK();
  for (std::string_view other : {"unix-none", "unix-dotfile", "unix-excl", "memdb"}) {
    if (vfs == other) return Status::NotSupported("vfs " + std::string(vfs) + " is not supported");
  }
  return Status::SqlError("no such vfs: " + std::string(vfs));
}

}  // namespace

Result<OpenPath> ResolveOpenPath(const std::string& path, const DatabaseOptions& options) {
  int flags =
      options.read_only ? kReadOnly : kReadWrite | (options.create_if_missing ? kCreate : 0);
  std::string file = path;
  bool shared_cache = false;
  if (options.uri && path.compare(0, 5, "file:") == 0) {
    std::string_view rest = std::string_view(path).substr(5);
    if (rest.substr(0, 2) == "//") {
      // file://AUTHORITY/path: only an empty authority or "localhost".
      const size_t end = std::min(rest.find('/', 2), rest.size());
      const std::string_view authority = rest.substr(2, end - 2);
      if (!authority.empty() && authority != "localhost") {
        return Status::SqlError("invalid uri authority: " + std::string(authority));
      }
      rest = rest.substr(end);
    }
    ParsedUri uri = DecodeUri(rest);
    ENGINE_RETURN_IF_ERROR(ApplyParams(uri, &flags, &shared_cache));
    file = std::move(uri.file);
  }
  OpenPath out;
  out.read_only = (flags & kReadOnly) != 0;
  // mode=memory clears the access bits, as in SQLite: such a database is
  // writable, and created.
  out.create_if_missing = (flags & kCreate) != 0 || (flags & kMemory) != 0;
  if ((flags & kMemory) != 0 || file == ":memory:") {
    out.kind = OpenPath::Kind::kMemory;
    if (shared_cache) {
      return Status::NotSupported(
          "shared-cache in-memory databases are not supported: each connection has its own");
    }
  } else if (file.empty()) {
    out.kind = OpenPath::Kind::kTemporary;
  } else {
    out.kind = OpenPath::Kind::kFile;
    out.file = std::move(file);
  }
  return out;
}

}  // namespace engine
