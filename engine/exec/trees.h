// The B-trees of a connection's databases, as the executors reach them: the
// main database and the temp database (in memory; null until the
// connection first needs it). Every object of the catalog says which
// database it lives in (catalog::Db); its root page means nothing in the
// other.
#pragma once

#include "engine/catalog/schema.h"

namespace engine {
class BTree;
}

namespace engine::exec {

struct Trees {
  BTree* main = nullptr;
  BTree* temp = nullptr;

  BTree* of(catalog::Db db) const { return db == catalog::Db::kTemp ? temp : main; }
};

}  // namespace engine::exec
