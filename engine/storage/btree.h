// The database as a set of B-trees in one file (SQLite 3 format): table
// trees keyed by rowid, index trees keyed by their record, sqlite_schema on
// page 1. BTree owns the pager, creates and drops trees, inserts and deletes
// entries, and keeps every tree balanced: all leaves at one depth, no empty
// page below the root, pages freed to the freelist as they empty.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/storage/btree_cursor.h"
#include "engine/storage/btree_page.h"
#include "engine/storage/pager.h"
#include "engine/storage/record.h"

namespace engine {

// Cursors (BtCursor) must be closed before the BTree; one that outlives it
// only returns errors.
class BTree {
 public:
  static Result<std::unique_ptr<BTree>> Open(const std::string& path, const PagerOptions& opts);
  explicit BTree(std::unique_ptr<Pager> pager);
  ~BTree();
  BTree(const BTree&) = delete;
  BTree& operator=(const BTree&) = delete;

  Pager& pager() { return *pager_; }
  uint32_t usable_size() const { return pager_->usable_size(); }
  // The schema format number (header offset 44): 4 lets records store 0 and
  // 1 as serial types 8 and 9.
  int file_format() const;

  Status BeginRead();
  Status EndRead();
  Status BeginWrite();
  Status Commit();
  Status Rollback();
  // Statement savepoints (Pager::BeginStatement): a failing statement inside
  // an explicit transaction is undone alone.
  Status BeginStatement() { return pager_->BeginStatement(); }
  void EndStatement() { pager_->EndStatement(); }
  Status RollbackStatement();

  // A new, empty tree; its root page number is stable for its lifetime.
  Result<uint32_t> CreateTable();
  Result<uint32_t> CreateIndex();
  // Frees every page of the tree, its root included, to the freelist.
  Status DropTree(uint32_t root);
  // Frees every page but the root, which becomes an empty leaf.
  Status ClearTree(uint32_t root);

  // Table trees: inserts the row, replacing one with the same rowid. `hint`,
  // a cursor on this tree that the caller just positioned at the rowid, on
  // its neighbour, at the last row, or past the end by a seek, saves the
  // descent (as SQLite's OP_Insert reuses its seek); unless the insert had
  // to rebalance, the hint is left on the new row, so that the next
  // rowid-order insert finds its place at once. A replacement of the same
  // size overwrites the cell in place.
  Status Insert(uint32_t root, int64_t rowid, std::span<const uint8_t> record,
                BtCursor* hint = nullptr);
  // Index trees: inserts the key record (indexed columns then rowid),
  // ordered by `order` (each column's direction and collation). An equal key
  // is replaced.
  // `hint`, a cursor on this index just positioned by seek_index (the
  // UNIQUE check's probe), saves the descent when the key belongs where
  // that seek ended: two comparisons with its neighbours prove it.
  Status InsertIndex(uint32_t root, std::span<const uint8_t> key, KeyOrder order = {},
                     BtCursor* hint = nullptr);
  // Fills the empty index tree at `root` bottom-up from keys (records, as
  // InsertIndex takes them) that `next` yields in the tree's order, false
  // after the last (engine/storage/btree_bulk.cc): pages packed left to
  // right as SQLite's bulk-load balance packs them, no key compared or
  // descended to. Keys out of order make a corrupt tree: the caller sorts
  // them (KeySorter).
  using KeyStream = std::function<Result<bool>(std::span<const uint8_t>* key)>;
  Status BulkLoadIndex(uint32_t root, const KeyStream& next);
  // Index inserts that took their place from the hint, since the tree opened
  // (tests prove the shortcut is taken, not only that it is harmless).
  uint64_t index_hint_hits() const { return index_hint_hits_; }
  // Deletes the entry under the cursor. Afterwards next() moves to the entry
  // that followed it and prev() to the one before.
  Status Delete(BtCursor* cursor);

 private:
  friend class BtCursor;
  class BulkLoader;  // btree_bulk.cc
  struct PathEntry {
    uint32_t pgno;
    int idx;  // child taken (interior) or cell (leaf)
  };
  struct Pending {
    int idx;  // position in the page's logical cell order
    std::vector<uint8_t> cell;
  };

  void Register(BtCursor* c) { cursors_.push_back(c); }
  void Unregister(BtCursor* c);
  // Cursors that pin pages (and so must be saved before a change) are kept
  // apart from the idle ones: a connection with many prepared statements
  // keeps many idle cursors, and every insert would otherwise visit them.
  void Activate(BtCursor* c);
  void Deactivate(BtCursor* c);
  Status SaveCursors(uint32_t root, const BtCursor* except);
  Status SaveAllCursors();

  Result<uint32_t> CreateTree(uint8_t leaf_type);
  Status RequireWrite() const;
  Result<PageRef> GetWritable(uint32_t pgno);
  // Cell bytes for a payload on a page of `type`, writing its overflow chain.
  Status BuildCell(uint8_t type, const uint8_t* prefix, size_t prefix_len,
                   std::span<const uint8_t> payload, std::vector<uint8_t>* cell);
  Status FreeOverflow(const CellInfo& c);
  Status FreePages(uint32_t pgno, int depth, std::vector<uint32_t>* seen);
  // Puts `cell` at leaf path.back(), balancing when it does not fit
  // (*balanced then says so: pages other than the leaf changed).
  Status InsertCell(std::vector<PathEntry>* path, std::span<const uint8_t> cell,
                    bool* balanced = nullptr);
  // With key_values_ parsed: descends c to where the key goes (replacing an
  // equal entry) and leaves that place in path_.
  Status DescendForIndexInsert(BtCursor* c, uint32_t root);
  // Builds the leaf cell of `key` and puts it at path_.
  Status InsertIndexCell(std::span<const uint8_t> key);
  // The insertion path for `rowid` read off a positioned cursor; false when
  // the cursor does not pin it down (the caller then descends).
  bool PathFromHint(const BtCursor* c, uint32_t root, int64_t rowid, std::vector<PathEntry>* path,
                    bool* replace) const;
  // The same for an index key: the path where the hint's last descent
  // ended, when the key lies strictly between that place's neighbours.
  Result<bool> IndexPathFromHint(BtCursor* c, uint32_t root, const Value* key, int n,
                                 std::vector<PathEntry>* path);
  // The cursor Insert and InsertIndex descend with, re-pointed at `root`.
  BtCursor& Scratch(uint32_t root, KeyOrder order);
  Status DeleteInterior(std::vector<PathEntry>* path, BtCursor* cursor);

  // Balancing (btree_balance.cc).
  Status Balance(std::vector<PathEntry>* path, int level, std::vector<Pending>* pending);
  Status BalanceNonRoot(std::vector<PathEntry>* path, int level, std::vector<Pending>* pending);
  Status BalanceDeeper(std::vector<PathEntry>* path, std::vector<Pending>* pending);
  Status BalanceShallower(uint32_t root);
  Result<bool> Underfull(const PageRef& page, const PageInfo& pg) const;

  std::unique_ptr<Pager> pager_;
  std::vector<BtCursor*> cursors_;  // every cursor on this tree
  std::vector<BtCursor*> active_;   // those that pin pages
  // Scratch for Insert / InsertIndex (not re-entered while in use).
  std::vector<uint8_t> cell_buf_;
  std::vector<PathEntry> path_;
  RecordReader key_reader_;
  std::vector<Value> key_values_;
  uint64_t index_hint_hits_ = 0;
  // Last, so that it goes before the pager (the destructor has already
  // detached it from this tree).
  std::unique_ptr<BtCursor> scratch_;
};

}  // namespace engine
