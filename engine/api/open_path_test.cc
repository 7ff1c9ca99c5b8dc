#include "engine/api/open_path.h"

#include <gtest/gtest.h>

#include <string>

namespace engine {
namespace {

DatabaseOptions Flags(bool uri, bool read_only = false, bool create = true) {
  DatabaseOptions o;
  o.uri = uri;
  o.read_only = read_only;
  o.create_if_missing = create;
  return o;
}

// "kind file ro create", e.g. "file a b.db rw c", or "error: message".
std::string Describe(const std::string& path, const DatabaseOptions& o) {
  auto r = ResolveOpenPath(path, o);
  if (!r.ok()) return "error: " + r.status().message();
  std::string kind = r->kind == OpenPath::Kind::kFile     ? "file " + r->file
                     : r->kind == OpenPath::Kind::kMemory ? "memory"
                                                          : "temporary";
  return kind + (r->read_only ? " ro" : " rw") + (r->create_if_missing ? " c" : "");
}

TEST(OpenPathTest, PlainNames) {
  for (bool uri : {false, true}) {
    EXPECT_EQ(Describe(":memory:", Flags(uri)), "memory rw c");
    EXPECT_EQ(Describe("", Flags(uri)), "temporary rw c");
    EXPECT_EQ(Describe("data.db", Flags(uri)), "file data.db rw c");
    EXPECT_EQ(Describe("data.db", Flags(uri, true)), "file data.db ro");
    EXPECT_EQ(Describe("data.db", Flags(uri, false, false)), "file data.db rw");
    // Only ":memory:" exactly.
    EXPECT_EQ(Describe(":MEMORY:", Flags(uri)), "file :MEMORY: rw c");
  }
  // Without the option a URI is a file's name, with its '?' and all.
  EXPECT_EQ(Describe("file:x.db?mode=ro", Flags(false)), "file file:x.db?mode=ro rw c");
  EXPECT_EQ(Describe("file::memory:", Flags(false)), "file file::memory: rw c");
}

TEST(OpenPathTest, UriNamesAndModes) {
  const DatabaseOptions u = Flags(true);
  EXPECT_EQ(Describe("file:data.db", u), "file data.db rw c");
  EXPECT_EQ(Describe("file:/abs/x.db", u), "file /abs/x.db rw c");
  EXPECT_EQ(Describe("file:///abs/x.db", u), "file /abs/x.db rw c");
  EXPECT_EQ(Describe("file://localhost/abs/x.db", u), "file /abs/x.db rw c");
  EXPECT_EQ(Describe("file://localhost", u), "temporary rw c");
  EXPECT_EQ(Describe("file:", u), "temporary rw c");
  EXPECT_EQ(Describe("file:?mode=memory", u), "memory rw c");
  EXPECT_EQ(Describe("file::memory:", u), "memory rw c");
  EXPECT_EQ(Describe("file::memory:?mode=ro", u), "memory ro");
  EXPECT_EQ(Describe("file:x?mode=memory", u), "memory rw c");
  // A later mode replaces mode=memory's bit, as in SQLite.
  EXPECT_EQ(Describe("file:x?mode=memory&mode=ro", u), "file x ro");
  EXPECT_EQ(Describe("file:x.db?mode=ro", u), "file x.db ro");
  EXPECT_EQ(Describe("file:x.db?mode=rw", u), "file x.db rw");
  EXPECT_EQ(Describe("file:x.db?mode=rwc", u), "file x.db rw c");
  EXPECT_EQ(Describe("file:x.db?mode=ro", Flags(true, true)), "file x.db ro");
  EXPECT_EQ(Describe("file:x.db?mode=rw", Flags(true, false, false)), "file x.db rw");
  // Escapes, fragments and parameters that say nothing to the engine.
  EXPECT_EQ(Describe("file:a%20b%3fc%26d.db", u), "file a b?c&d.db rw c");
  EXPECT_EQ(Describe("file:a%zz%4", u), "file a%zz%4 rw c");
  EXPECT_EQ(Describe("file:a%00bc?mode=ro", u), "file a ro");
  EXPECT_EQ(Describe("file:x.db#frag?mode=ro", u), "file x.db rw c");
  EXPECT_EQ(Describe("file:x.db?mode=ro#frag", u), "file x.db ro");
  EXPECT_EQ(Describe("file:x.db?&&=y&mode=ro&", u), "file x.db ro");
  EXPECT_EQ(Describe("file:x.db?immutable=1&psow=0&cache=private&vfs=unix&mo%64e=ro", u),
            "file x.db ro");
  EXPECT_EQ(Describe("file:x.db?cache=shared", u), "file x.db rw c");
}

TEST(OpenPathTest, UriErrors) {
  const DatabaseOptions u = Flags(true);
  EXPECT_EQ(Describe("file://host/x.db", u), "error: invalid uri authority: host");
  EXPECT_EQ(Describe("file://LOCALHOST/x.db", u), "error: invalid uri authority: LOCALHOST");
  EXPECT_EQ(Describe("file:x.db?mode=x", u), "error: no such access mode: x");
  EXPECT_EQ(Describe("file:x.db?mode", u), "error: no such access mode: ");
  EXPECT_EQ(Describe("file:x.db?mode=rw", Flags(true, true)), "error: access mode not allowed: rw");
  EXPECT_EQ(Describe("file:x.db?mode=rwc", Flags(true, false, false)),
            "error: access mode not allowed: rwc");
  EXPECT_EQ(Describe("file:x.db?cache=x", u), "error: no such cache mode: x");
  EXPECT_EQ(Describe("file:x.db?vfs=x", u), "error: no such vfs: x");
  EXPECT_EQ(Describe("file:x.db?vfs=memdb", u), "error: vfs memdb is not supported");
  // The mode's error comes first, whatever the order, as in sqlite3.
  EXPECT_EQ(Describe("file:x.db?vfs=x&mode=y", u), "error: no such access mode: y");
  EXPECT_EQ(Describe("file::memory:?cache=shared", u),
            "error: shared-cache in-memory databases are not supported: each connection has its "
            "own");
}

}  // namespace
}  // namespace engine
