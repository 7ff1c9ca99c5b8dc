#include "engine/storage/btree.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/util/varint.h"

namespace engine {

namespace {

// The bytes a cell really spans (CellInfo::size rounds up to 4).
uint32_t cell_length(const CellInfo& c, uint32_t off) {
  return c.payload_off - off + c.local + (c.payload_size > c.local ? 4 : 0);
}

}  // namespace

Result<std::unique_ptr<BTree>> BTree::Open(const std::string& path, const PagerOptions& opts) {
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<Pager> pager, Pager::Open(path, opts));
  const uint32_t enc = pager->header_u32(hdr::kTextEncoding);
  if (enc > 1) {
    return Status::NotSupported("database text encoding " + std::to_string(enc) +
                                " (only UTF-8 is supported): " + path);
  }
  return std::make_unique<BTree>(std::move(pager));
}

BTree::BTree(std::unique_ptr<Pager> pager) : pager_(std::move(pager)) {}

BTree::~BTree() {
  // Cursors that outlive the tree fail their next move instead of touching
  // a freed pager.
  for (BtCursor* c : cursors_) {
    c->release_pages();
    c->state_ = BtCursor::State::kInvalid;
    c->tree_ = nullptr;
  }
}

int BTree::file_format() const {
  const uint32_t f = pager_->header_u32(hdr::kSchemaFormat);
  return f == 0 ? 4 : static_cast<int>(f);
}

void BTree::Unregister(BtCursor* c) {
  auto it = std::find(cursors_.begin(), cursors_.end(), c);
  if (it != cursors_.end()) cursors_.erase(it);
}

void BTree::Activate(BtCursor* c) {
  if (c->active_slot_ >= 0) return;
  c->active_slot_ = static_cast<int>(active_.size());
  active_.push_back(c);
}

void BTree::Deactivate(BtCursor* c) {
  const int slot = c->active_slot_;
  if (slot < 0) return;
  BtCursor* last = active_.back();
  active_[static_cast<size_t>(slot)] = last;
  last->active_slot_ = slot;
  active_.pop_back();
  c->active_slot_ = -1;
}

Status BTree::SaveCursors(uint32_t root, const BtCursor* except) {
  // Backwards: a saved cursor leaves active_, and the one that takes its
  // slot comes from the end, already visited.
  for (size_t i = active_.size(); i-- > 0;) {
    BtCursor* c = active_[i];
    if (c != except && c->root_ == root) ENGINE_RETURN_IF_ERROR(c->save());
  }
  return Status::OK();
}

Status BTree::SaveAllCursors() {
  for (size_t i = active_.size(); i-- > 0;) ENGINE_RETURN_IF_ERROR(active_[i]->save());
  return Status::OK();
}

Status BTree::BeginRead() { return pager_->BeginRead(); }

Status BTree::EndRead() {
  ENGINE_RETURN_IF_ERROR(SaveAllCursors());
  return pager_->EndRead();
}

Status BTree::BeginWrite() { return pager_->BeginWrite(); }

Status BTree::Commit() {
  ENGINE_RETURN_IF_ERROR(SaveAllCursors());
  return pager_->Commit();
}

Status BTree::Rollback() {
  // Positions may name rows the rollback removes; cursors re-seek by key.
  Status st = SaveAllCursors();
  Status rb = pager_->Rollback();
  return rb.ok() ? st : rb;
}

Status BTree::RollbackStatement() {
  // As for Rollback: positions may name rows the statement added.
  Status st = SaveAllCursors();
  Status rb = pager_->RollbackStatement();
  return rb.ok() ? st : rb;
}

Status BTree::RequireWrite() const {
  if (!pager_->in_write())
    return Status::InvalidArgument("b-tree change outside a write transaction");
  return Status::OK();
}

Result<PageRef> BTree::GetWritable(uint32_t pgno) {
  ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(pgno));
  ENGINE_RETURN_IF_ERROR(pager_->MakeWritable(p));
  return p;
}

Result<uint32_t> BTree::CreateTree(uint8_t leaf_type) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Allocate());
  PageInfo pg;
  page_init(p.mutable_data(), 0, leaf_type, pager_->usable_size(), &pg, p.pgno());
  return p.pgno();
}

Result<uint32_t> BTree::CreateTable() { return CreateTree(kTableLeaf); }
Result<uint32_t> BTree::CreateIndex() { return CreateTree(kIndexLeaf); }

Status BTree::FreeOverflow(const CellInfo& c) {
  if (c.payload_size <= c.local) return Status::OK();
  const uint64_t n = overflow_page_count(c.payload_size, c.local, pager_->usable_size());
  if (n > pager_->page_count()) return Status::Corruption("overflow chain longer than the file");
  uint32_t pgno = c.overflow;
  for (uint64_t i = 0; i < n; ++i) {
    if (pgno < 2 || pgno > pager_->page_count()) {
      return Status::Corruption("overflow chain points at page " + std::to_string(pgno));
    }
    uint32_t next;
    {
      ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(pgno));
      next = get_u32(p.data());
    }
    ENGINE_RETURN_IF_ERROR(pager_->Free(pgno));
    pgno = next;
  }
  if (pgno != 0) return Status::Corruption("overflow chain longer than its payload (a cycle?)");
  return Status::OK();
}

Status BTree::FreePages(uint32_t pgno, int depth, std::vector<uint32_t>* seen) {
  if (depth >= kMaxBtreeDepth) return Status::Corruption("b-tree deeper than 20 levels (a cycle?)");
  if (pgno < 2 || pgno > pager_->page_count()) {
    return Status::Corruption("child pointer to page " + std::to_string(pgno));
  }
  if (std::find(seen->begin(), seen->end(), pgno) != seen->end()) {
    return Status::Corruption("page " + std::to_string(pgno) + " appears twice in one b-tree");
  }
  seen->push_back(pgno);
  std::vector<uint32_t> children;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), pgno, pager_->usable_size(), &pg));
    for (int i = 0; i < pg.ncell; ++i) {
      CellInfo c;
      if (!parse_cell_header(p.data(), pg, read_cell_ptr(p.data(), pg.ptrs_off, i), &c)) {
        return Status::Corruption("page " + std::to_string(pgno) + ": cell outside the page");
      }
      ENGINE_RETURN_IF_ERROR(FreeOverflow(c));
      if (!pg.leaf) children.push_back(c.child);
    }
    if (!pg.leaf) children.push_back(pg.right_child);
  }
  for (uint32_t child : children) ENGINE_RETURN_IF_ERROR(FreePages(child, depth + 1, seen));
  return pager_->Free(pgno);
}

Status BTree::ClearTree(uint32_t root) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  ENGINE_RETURN_IF_ERROR(SaveCursors(root, nullptr));
  ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(root));
  PageInfo pg;
  ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), root, pager_->usable_size(), &pg));
  std::vector<uint32_t> seen{root};
  for (int i = 0; i <= pg.ncell; ++i) {
    if (i < pg.ncell) {
      CellInfo c;
      if (!parse_cell_header(p.data(), pg, read_cell_ptr(p.data(), pg.ptrs_off, i), &c)) {
        return Status::Corruption("page " + std::to_string(root) + ": cell outside the page");
      }
      ENGINE_RETURN_IF_ERROR(FreeOverflow(c));
      if (!pg.leaf) ENGINE_RETURN_IF_ERROR(FreePages(c.child, 1, &seen));
    } else if (!pg.leaf) {
      ENGINE_RETURN_IF_ERROR(FreePages(pg.right_child, 1, &seen));
    }
  }
  const uint8_t leaf_type = pg.table ? kTableLeaf : kIndexLeaf;
  page_init(p.mutable_data(), pg.hdr_off, leaf_type, pager_->usable_size(), &pg, root);
  return Status::OK();
}

Status BTree::DropTree(uint32_t root) {
  if (root == 1) return Status::InvalidArgument("cannot drop sqlite_schema (page 1)");
  ENGINE_RETURN_IF_ERROR(ClearTree(root));
  for (BtCursor* c : cursors_) {
    if (c->root_ == root) c->state_ = BtCursor::State::kInvalid;
  }
  return pager_->Free(root);
}

Status BTree::BuildCell(uint8_t type, const uint8_t* prefix, size_t prefix_len,
                        std::span<const uint8_t> payload, std::vector<uint8_t>* cell) {
  const uint32_t usable = pager_->usable_size();
  const uint32_t local =
      local_payload_size(payload.size(), usable, max_local_payload(usable, type == kTableLeaf),
                         min_local_payload(usable));
  cell->resize(prefix_len + local + (payload.size() > local ? 4 : 0));
  std::memcpy(cell->data(), prefix, prefix_len);
  if (local > 0) std::memcpy(cell->data() + prefix_len, payload.data(), local);
  if (payload.size() == local) return Status::OK();
  size_t done = local;
  PageRef prev;
  while (done < payload.size()) {
    ENGINE_ASSIGN_OR_RETURN(PageRef ov, pager_->Allocate());
    const size_t n = std::min<size_t>(usable - 4, payload.size() - done);
    uint8_t* d = ov.mutable_data();
    put_u32(d, 0);
    std::memcpy(d + 4, payload.data() + done, n);
    done += n;
    if (prev) {
      put_u32(prev.mutable_data(), ov.pgno());
    } else {
      put_u32(cell->data() + prefix_len + local, ov.pgno());
    }
    prev = std::move(ov);
  }
  return Status::OK();
}

Status BTree::InsertCell(std::vector<PathEntry>* path, std::span<const uint8_t> cell,
                         bool* balanced) {
  const PathEntry leaf = path->back();
  if (balanced != nullptr) *balanced = true;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(leaf.pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), leaf.pgno, pager_->usable_size(), &pg));
    bool fitted;
    ENGINE_RETURN_IF_ERROR(page_insert_cell(p.mutable_data(), &pg, leaf.idx, cell, &fitted));
    if (fitted) {
      if (balanced != nullptr) *balanced = false;
      return Status::OK();
    }
  }
  std::vector<Pending> pending;
  pending.push_back(Pending{leaf.idx, std::vector<uint8_t>(cell.begin(), cell.end())});
  return Balance(path, static_cast<int>(path->size()) - 1, &pending);
}

BtCursor& BTree::Scratch(uint32_t root, KeyOrder order) {
  if (!scratch_) {
    scratch_ = std::make_unique<BtCursor>(this, root, order);
  } else {
    scratch_->rebind(root, order);
  }
  return *scratch_;
}

bool BTree::PathFromHint(const BtCursor* c, uint32_t root, int64_t rowid,
                         std::vector<PathEntry>* path, bool* replace) const {
  if (c == nullptr || c->tree_ != this || c->root_ != root || !c->is_table_) return false;
  int depth;
  int idx;
  if (c->state_ == BtCursor::State::kValid) {
    depth = c->depth_;
    const BtCursor::Level& lv = c->stack_[depth];
    if (depth < 0 || !lv.info.leaf || lv.idx >= lv.info.ncell) return false;
    if (c->cell_.key == rowid) {
      idx = lv.idx;
      *replace = true;
    } else if (c->cell_.key < rowid) {
      if (lv.idx + 1 < lv.info.ncell) {
        // Between this entry and the next one of the same leaf.
        CellInfo next;
        if (!parse_cell_header(lv.page.data(), lv.info,
                               read_cell_ptr(lv.page.data(), lv.info.ptrs_off, lv.idx + 1),
                               &next) ||
            next.key <= rowid) {
          return false;
        }
        idx = lv.idx + 1;
      } else {
        // After the last entry of the tree: every level took its right child.
        for (int d = 0; d < depth; ++d) {
          if (c->stack_[d].idx != c->stack_[d].info.ncell) return false;
        }
        idx = lv.info.ncell;
      }
    } else {
      return false;
    }
  } else if (c->state_ == BtCursor::State::kInvalid && c->append_hint_ &&
             c->append_rowid_ == rowid) {
    depth = c->append_depth_;
    const BtCursor::Level& lv = c->stack_[depth];
    if (!lv.info.leaf || lv.idx != lv.info.ncell) return false;
    idx = lv.idx;
  } else {
    return false;
  }
  for (int d = 0; d < depth; ++d) path->push_back({c->stack_[d].info.pgno, c->stack_[d].idx});
  path->push_back({c->stack_[depth].info.pgno, idx});
  return true;
}

Status BTree::Insert(uint32_t root, int64_t rowid, std::span<const uint8_t> record,
                     BtCursor* hint) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  std::vector<PathEntry>& path = path_;
  path.clear();
  bool replace = false;
  const bool hinted = PathFromHint(hint, root, rowid, &path, &replace);
  if (!hinted) {
    path.clear();
    BtCursor& c = Scratch(root, {});
    Status st = c.descend_table(rowid);
    if (st.ok()) {
      for (int d = 0; d <= c.depth_; ++d) path.push_back({c.stack_[d].info.pgno, c.stack_[d].idx});
      const BtCursor::Level& lv = c.stack_[c.depth_];
      if (lv.idx < lv.info.ncell) {
        CellInfo cell;
        if (!parse_cell_header(lv.page.data(), lv.info,
                               read_cell_ptr(lv.page.data(), lv.info.ptrs_off, lv.idx), &cell)) {
          st = Status::Corruption("page " + std::to_string(lv.info.pgno) +
                                  ": cell outside the page");
        }
        replace = cell.key == rowid;
      }
    }
    c.close();
    ENGINE_RETURN_IF_ERROR(st);
  }
  // Every other cursor on the tree lets go of its pages; the hint keeps its
  // own, to be moved onto the new row below.
  ENGINE_RETURN_IF_ERROR(SaveCursors(root, hinted ? hint : nullptr));
  uint8_t prefix[2 * kMaxVarintLen];
  int n = put_varint(prefix, record.size());
  n += put_varint(prefix + n, static_cast<uint64_t>(rowid));
  std::vector<uint8_t> cell;
  cell.swap(cell_buf_);
  Status st = BuildCell(kTableLeaf, prefix, static_cast<size_t>(n), record, &cell);
  bool done = false;
  if (st.ok() && replace) {
    auto p = GetWritable(path.back().pgno);
    if (!p.ok()) {
      st = p.status();
    } else {
      PageInfo pg;
      st = parse_page_header(p->data(), path.back().pgno, pager_->usable_size(), &pg);
      CellInfo old;
      uint16_t off = 0;
      if (st.ok()) {
        off = read_cell_ptr(p->data(), pg.ptrs_off, path.back().idx);
        if (path.back().idx >= pg.ncell || !parse_cell_header(p->data(), pg, off, &old)) {
          st = Status::Corruption("page " + std::to_string(pg.pgno) + ": cell outside the page");
        }
      }
      if (st.ok() && old.payload_size == old.local && record.size() == cell.size() - n &&
          cell_length(old, off) == cell.size()) {
        // Same size, nothing overflows: SQLite's overwrite in place (an
        // UPDATE that keeps the row's length touches only its bytes).
        std::memcpy(p->mutable_data() + off, cell.data(), cell.size());
        done = true;
      } else {
        if (st.ok()) st = FreeOverflow(old);
        if (st.ok()) st = page_drop_cell(p->mutable_data(), &pg, path.back().idx);
      }
    }
  }
  bool balanced = false;
  if (st.ok() && !done) st = InsertCell(&path, cell, &balanced);
  cell.swap(cell_buf_);
  if (hinted) {
    if (st.ok() && !balanced) {
      st = hint->land_after_insert(static_cast<int>(path.size()) - 1, path.back().idx);
    } else {
      hint->close();
    }
  }
  return st;
}

Result<bool> BTree::IndexPathFromHint(BtCursor* c, uint32_t root, const Value* key, int n,
                                      std::vector<PathEntry>* path) {
  if (c == nullptr || c->tree_ != this || c->root_ != root || c->is_table_ ||
      c->descend_leaf_ < 0) {
    return false;
  }
  const int leaf = c->descend_leaf_;
  // In key order the place is preceded by the cell before it in the leaf,
  // else by the divider left of the child the nearest ancestor took; and
  // followed likewise. No neighbour on a side: the tree's end.
  for (int d = leaf; d >= 0; --d) {
    const BtCursor::Level& lv = c->stack_[d];
    if (lv.idx < lv.info.ncell) {
      int cmp;
      ENGINE_RETURN_IF_ERROR(c->compare_cell(lv, lv.idx, key, n, &cmp));
      if (cmp <= 0) return false;
      break;
    }
  }
  for (int d = leaf; d >= 0; --d) {
    const BtCursor::Level& lv = c->stack_[d];
    if (lv.idx > 0) {
      int cmp;
      ENGINE_RETURN_IF_ERROR(c->compare_cell(lv, lv.idx - 1, key, n, &cmp));
      if (cmp >= 0) return false;
      break;
    }
  }
  for (int d = 0; d <= leaf; ++d) path->push_back({c->stack_[d].info.pgno, c->stack_[d].idx});
  return true;
}

Status BTree::InsertIndex(uint32_t root, std::span<const uint8_t> key, KeyOrder order,
                          BtCursor* hint) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  // Parsed once, for the hint and for the descent (member scratch: no
  // allocation per key once warm).
  ENGINE_RETURN_IF_ERROR(key_reader_.Parse(key.data(), key.size()));
  key_values_.clear();
  for (int i = 0; i < key_reader_.column_count(); ++i) key_values_.push_back(key_reader_.column(i));
  const int nkey = static_cast<int>(key_values_.size());
  if (hint != nullptr && hint->descend_leaf_ >= 0) {
    path_.clear();
    ENGINE_ASSIGN_OR_RETURN(bool hinted,
                            IndexPathFromHint(hint, root, key_values_.data(), nkey, &path_));
    if (hinted) {
      ++index_hint_hits_;
      ENGINE_RETURN_IF_ERROR(SaveCursors(root, nullptr));
      return InsertIndexCell(key);
    }
  }
  ENGINE_RETURN_IF_ERROR(SaveCursors(root, nullptr));
  BtCursor& c = Scratch(root, order);
  Status st = DescendForIndexInsert(&c, root);
  c.close();
  if (!st.ok()) return st;
  return InsertIndexCell(key);
}

Status BTree::DescendForIndexInsert(BtCursor* c, uint32_t root) {
  const Value* values = key_values_.data();
  const int nkey = static_cast<int>(key_values_.size());
  ENGINE_RETURN_IF_ERROR(c->descend_index(values, nkey, false));
  // The entry at the lower bound: in the leaf, or else the interior entry of
  // the nearest ancestor entered left of its right child. When it equals the
  // key (the rowid included), it is replaced.
  bool exact = false;
  for (int d = c->depth_; d >= 0; --d) {
    const BtCursor::Level& lv = c->stack_[d];
    if (lv.idx < lv.info.ncell) {
      int cmp;
      ENGINE_RETURN_IF_ERROR(c->compare_cell(lv, lv.idx, values, nkey, &cmp));
      exact = cmp == 0;
      break;
    }
  }
  if (exact) {
    bool found = false;
    ENGINE_RETURN_IF_ERROR(c->seek_index(values, nkey, SeekOp::kGE, &found));
    if (found) {
      ENGINE_RETURN_IF_ERROR(Delete(c));
      ENGINE_RETURN_IF_ERROR(SaveCursors(root, nullptr));
    }
    ENGINE_RETURN_IF_ERROR(c->descend_index(values, nkey, false));
  }
  path_.clear();
  for (int d = 0; d <= c->depth_; ++d) path_.push_back({c->stack_[d].info.pgno, c->stack_[d].idx});
  return Status::OK();
}

Status BTree::InsertIndexCell(std::span<const uint8_t> key) {
  uint8_t prefix[kMaxVarintLen];
  const int n = put_varint(prefix, key.size());
  ENGINE_RETURN_IF_ERROR(BuildCell(kIndexLeaf, prefix, static_cast<size_t>(n), key, &cell_buf_));
  return InsertCell(&path_, cell_buf_);
}

Result<bool> BTree::Underfull(const PageRef& page, const PageInfo& pg) const {
  if (pg.ncell == 0) return true;
  uint32_t free_bytes;
  ENGINE_RETURN_IF_ERROR(page_free_space(page.data(), pg, &free_bytes));
  return free_bytes > pg.usable * 2 / 3;
}

Status BTree::Delete(BtCursor* cursor) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  if (cursor->state_ == BtCursor::State::kSaved) {
    bool exact;
    ENGINE_RETURN_IF_ERROR(cursor->restore(&exact));
    if (!exact) return Status::NotFound("the cursor's entry was already deleted");
  }
  if (cursor->state_ != BtCursor::State::kValid) {
    return Status::InvalidArgument("delete with a cursor that is not on an entry");
  }
  ENGINE_RETURN_IF_ERROR(SaveCursors(cursor->root_, cursor));
  std::vector<PathEntry> path;
  for (int d = 0; d <= cursor->depth_; ++d) {
    path.push_back({cursor->stack_[d].info.pgno, cursor->stack_[d].idx});
  }
  const bool at_leaf = cursor->stack_[cursor->depth_].info.leaf;
  ENGINE_RETURN_IF_ERROR(cursor->save());  // remembers the key; next() resumes after it
  if (!at_leaf) return DeleteInterior(&path, cursor);
  const int level = static_cast<int>(path.size()) - 1;
  bool underfull = false;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(path.back().pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(
        parse_page_header(p.data(), path.back().pgno, pager_->usable_size(), &pg));
    CellInfo c;
    if (path.back().idx >= pg.ncell ||
        !parse_cell_header(p.data(), pg, read_cell_ptr(p.data(), pg.ptrs_off, path.back().idx),
                           &c)) {
      return Status::Corruption("page " + std::to_string(pg.pgno) + ": cell outside the page");
    }
    ENGINE_RETURN_IF_ERROR(FreeOverflow(c));
    ENGINE_RETURN_IF_ERROR(page_drop_cell(p.mutable_data(), &pg, path.back().idx));
    if (level > 0) {
      ENGINE_ASSIGN_OR_RETURN(underfull, Underfull(p, pg));
    }
  }
  if (!underfull) return Status::OK();
  std::vector<Pending> none;
  return Balance(&path, level, &none);
}

// An index entry in an interior page: its in-order predecessor (the last
// entry of the rightmost leaf of its left subtree) takes its place.
Status BTree::DeleteInterior(std::vector<PathEntry>* path, BtCursor* cursor) {
  const uint32_t usable = pager_->usable_size();
  const int level_x = static_cast<int>(path->size()) - 1;
  const PathEntry x = path->back();
  uint32_t child;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(x.pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), x.pgno, usable, &pg));
    if (x.idx >= pg.ncell) return Status::Corruption("interior cell index out of range");
    child = get_u32(p.data() + read_cell_ptr(p.data(), pg.ptrs_off, x.idx));
  }
  while (true) {
    if (path->size() >= static_cast<size_t>(kMaxBtreeDepth)) {
      return Status::Corruption("b-tree deeper than 20 levels (a cycle?)");
    }
    if (child < 2 || child > pager_->page_count()) {
      return Status::Corruption("child pointer to page " + std::to_string(child));
    }
    ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(child));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), child, usable, &pg));
    if (pg.ncell == 0) return Status::Corruption("empty page " + std::to_string(child));
    if (pg.leaf) {
      path->push_back({child, pg.ncell - 1});
      break;
    }
    path->push_back({child, pg.ncell});
    child = pg.right_child;
  }
  // Take the predecessor out of its leaf (its overflow pages move with it).
  std::vector<uint8_t> pred;
  std::vector<uint8_t> pred_key;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(path->back().pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), path->back().pgno, usable, &pg));
    const uint16_t off = read_cell_ptr(p.data(), pg.ptrs_off, path->back().idx);
    CellInfo c;
    if (!parse_cell_header(p.data(), pg, off, &c)) {
      return Status::Corruption("page " + std::to_string(pg.pgno) + ": cell outside the page");
    }
    pred.assign(p.data() + off, p.data() + off + cell_length(c, off));
    std::span<const uint8_t> rec;
    std::vector<uint8_t> buf;
    ENGINE_RETURN_IF_ERROR(cursor->read_payload(p.data(), c, &rec, &buf));
    pred_key.assign(rec.begin(), rec.end());
    ENGINE_RETURN_IF_ERROR(page_drop_cell(p.mutable_data(), &pg, path->back().idx));
  }
  // Replace the interior entry.
  std::vector<uint8_t> cell(4 + pred.size());
  bool fitted;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(x.pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), x.pgno, usable, &pg));
    CellInfo c;
    if (!parse_cell_header(p.data(), pg, read_cell_ptr(p.data(), pg.ptrs_off, x.idx), &c)) {
      return Status::Corruption("page " + std::to_string(pg.pgno) + ": cell outside the page");
    }
    ENGINE_RETURN_IF_ERROR(FreeOverflow(c));
    put_u32(cell.data(), c.child);
    std::memcpy(cell.data() + 4, pred.data(), pred.size());
    ENGINE_RETURN_IF_ERROR(page_drop_cell(p.mutable_data(), &pg, x.idx));
    ENGINE_RETURN_IF_ERROR(page_insert_cell(p.mutable_data(), &pg, x.idx, cell, &fitted));
  }
  if (!fitted) {
    std::vector<PathEntry> upper(path->begin(), path->begin() + level_x + 1);
    std::vector<Pending> pending;
    pending.push_back(Pending{x.idx, std::move(cell)});
    ENGINE_RETURN_IF_ERROR(Balance(&upper, level_x, &pending));
    // The leaf that gave up the predecessor may now hang elsewhere: find it
    // again, as the leaf just left of the predecessor's new place.
    RecordReader reader;
    ENGINE_RETURN_IF_ERROR(reader.Parse(pred_key.data(), pred_key.size()));
    std::vector<Value> values;
    for (int i = 0; i < reader.column_count(); ++i) values.push_back(reader.column(i));
    BtCursor c(this, cursor->root_, {cursor->order_.get(), cursor->norder_});
    c.allow_empty_pages_ = true;
    ENGINE_RETURN_IF_ERROR(c.descend_index(values.data(), static_cast<int>(values.size()), false));
    path->clear();
    for (int d = 0; d <= c.depth_; ++d) path->push_back({c.stack_[d].info.pgno, c.stack_[d].idx});
  }
  const int leaf_level = static_cast<int>(path->size()) - 1;
  if (leaf_level == 0) return Status::OK();
  bool underfull;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(path->back().pgno));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), path->back().pgno, usable, &pg));
    ENGINE_ASSIGN_OR_RETURN(underfull, Underfull(p, pg));
  }
  if (!underfull) return Status::OK();
  std::vector<Pending> none;
  return Balance(path, leaf_level, &none);
}

}  // namespace engine
