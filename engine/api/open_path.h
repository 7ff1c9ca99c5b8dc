// What the path given to Database::Open names, read as sqlite3_open_v2 reads
// its filename: main.c's sqlite3ParseUri for "file:" URIs (when
// DatabaseOptions::uri is set), then btree.c's rule for in-memory and
// temporary databases (":memory:", mode=memory, and the empty name).
#pragma once

#include <string>

#include "engine/options.h"
#include "engine/status.h"

namespace engine {

struct OpenPath {
  enum class Kind {
    kFile,       // a named file others may open too
    kMemory,     // private, in memory: ":memory:", file::memory:, mode=memory
    kTemporary,  // private, in an unnamed temporary file: "", "file:"
  };
  Kind kind = Kind::kFile;
  std::string file;  // kFile: the file's name, %-escapes decoded
  bool read_only = false;
  bool create_if_missing = true;
};

// Fails with sqlite3's message for a URI it refuses: "invalid uri
// authority: h", "no such access mode: x", "access mode not allowed: rw"
// (a mode wider than the options allow), "no such cache mode: x", "no such
// vfs: x". Query parameters sqlite3 ignores are ignored; cache=shared on an
// in-memory database is refused (the engine shares no cache between
// connections, so the connections would not see one database).
Result<OpenPath> ResolveOpenPath(const std::string& path, const DatabaseOptions& options);

}  // namespace engine
