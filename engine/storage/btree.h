// The database as a set of B-trees in one file (SQLite 3 format): table
// trees keyed by rowid, index trees keyed by their record, sqlite_schema on
// page 1. BTree owns the pager, creates and drops trees, inserts and deletes
// entries, and keeps every tree balanced: all leaves at one depth, no empty
// page below the root, pages freed to the freelist as they empty.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/storage/btree_cursor.h"
#include "engine/storage/btree_page.h"
#include "engine/storage/pager.h"
#include "engine/storage/record.h"
#include "engine/util/status.h"

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

  // A new, empty tree; its root page number is stable for its lifetime.
  Result<uint32_t> CreateTable();
  Result<uint32_t> CreateIndex();
  // Frees every page of the tree, its root included, to the freelist.
  Status DropTree(uint32_t root);
  // Frees every page but the root, which becomes an empty leaf.
  Status ClearTree(uint32_t root);

  // Table trees: inserts the row, replacing one with the same rowid.
  Status Insert(uint32_t root, int64_t rowid, std::span<const uint8_t> record);
  // Index trees: inserts the key record (indexed columns then rowid),
  // ordered with desc[i] reversing column i. An equal key is replaced.
  Status InsertIndex(uint32_t root, std::span<const uint8_t> key, std::span<const bool> desc = {});
  // Deletes the entry under the cursor. Afterwards next() moves to the entry
  // that followed it and prev() to the one before.
  Status Delete(BtCursor* cursor);

 private:
  friend class BtCursor;
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
  // Puts `cell` at leaf path.back(), balancing when it does not fit.
  Status InsertCell(std::vector<PathEntry>* path, std::span<const uint8_t> cell);
  Status InsertIndexAt(BtCursor* c, uint32_t root, std::span<const uint8_t> key);
  Status DeleteInterior(std::vector<PathEntry>* path, BtCursor* cursor);

  // Balancing (btree_balance.cc).
  Status Balance(std::vector<PathEntry>* path, int level, std::vector<Pending>* pending);
  Status BalanceNonRoot(std::vector<PathEntry>* path, int level, std::vector<Pending>* pending);
  Status BalanceDeeper(std::vector<PathEntry>* path, std::vector<Pending>* pending);
  Status BalanceShallower(uint32_t root);
  Result<bool> Underfull(const PageRef& page, const PageInfo& pg) const;

  std::unique_ptr<Pager> pager_;
  std::vector<BtCursor*> cursors_;
  // Scratch for Insert / InsertIndex (not re-entered while in use).
  std::vector<uint8_t> cell_buf_;
  std::vector<PathEntry> path_;
  RecordReader key_reader_;
  std::vector<Value> key_values_;
};

}  // namespace engine
