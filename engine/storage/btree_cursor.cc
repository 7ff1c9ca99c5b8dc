#include "engine/storage/btree_cursor.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "engine/storage/btree.h"

namespace engine {

Status BtCursor::corrupt_cell(uint32_t pgno, int idx) {
  return Status::Corruption("page " + std::to_string(pgno) + ": cell " + std::to_string(idx) +
                            " lies outside the page");
}

BtCursor::BtCursor(BTree* tree, uint32_t root, KeyOrder order)
    : tree_(tree), root_(root), norder_(order.size()) {
  if (norder_ > 0) {
    order_ = std::make_unique<KeyColumn[]>(norder_);
    std::copy(order.begin(), order.end(), order_.get());
  }
  tree_->Register(this);
}

BtCursor::~BtCursor() {
  release_pages();
  if (tree_ != nullptr) tree_->Unregister(this);
}

void BtCursor::release_pages() {
  for (int d = 0; d <= top_; ++d) stack_[d].page.Release();
  if (active_slot_ >= 0 && tree_ != nullptr) tree_->Deactivate(this);
  top_ = -1;
  depth_ = -1;
  append_hint_ = false;
  descend_leaf_ = -1;
}

void BtCursor::close() {
  release_pages();
  state_ = State::kInvalid;
}

void BtCursor::rebind(uint32_t root, KeyOrder order) {
  close();
  root_ = root;
  if (order.size() > norder_) order_ = std::make_unique<KeyColumn[]>(order.size());
  norder_ = order.size();
  std::copy(order.begin(), order.end(), order_.get());
}

uint32_t BtCursor::child_at(const Level& lv, int idx) const {
  if (idx >= lv.info.ncell) return lv.info.right_child;
  return get_u32(lv.page.data() + read_cell_ptr(lv.page.data(), lv.info.ptrs_off, idx));
}

Status BtCursor::load_page_info(Level& lv, uint32_t pgno) {
  static_assert(std::is_trivially_copyable_v<PageInfo>);
  if (lv.page.load_parsed(&lv.info, sizeof lv.info)) return Status::OK();
  ENGINE_RETURN_IF_ERROR(
      parse_page_header(lv.page.data(), pgno, tree_->pager_->usable_size(), &lv.info));
  lv.page.store_parsed(&lv.info, sizeof lv.info);
  return Status::OK();
}

Status BtCursor::move_to_root() {
  if (tree_ == nullptr) return Status::InvalidArgument("cursor used after its b-tree was closed");
  Level& lv = stack_[0];
  append_hint_ = false;
  descend_leaf_ = -1;
  if (active_slot_ < 0) tree_->Activate(this);
  if (!lv.page || lv.page.pgno() != root_) {
    lv.page.Release();
    if (top_ < 0) top_ = 0;
    ENGINE_ASSIGN_OR_RETURN(lv.page, tree_->pager_->Get(root_));
    Status st = load_page_info(lv, root_);
    if (!st.ok()) {
      lv.page.Release();
      return st;
    }
  }
  is_table_ = lv.info.table;
  depth_ = 0;
  lv.idx = 0;
  return Status::OK();
}

Status BtCursor::push_child(uint32_t child) {
  const int d = depth_ + 1;
  if (d >= kMaxBtreeDepth) {
    return Status::Corruption("b-tree rooted at page " + std::to_string(root_) +
                              " is deeper than " + std::to_string(kMaxBtreeDepth) +
                              " levels (a cycle in its child pointers?)");
  }
  Level& lv = stack_[d];
  if (!lv.page || lv.page.pgno() != child) {
    lv.page.Release();
    if (child == 1) return Status::Corruption("child pointer to page 1");
    if (top_ < d) top_ = d;
    lv.page = tree_->pager_->GetCached(child);
    if (!lv.page) {
      ENGINE_ASSIGN_OR_RETURN(lv.page, tree_->pager_->Get(child));
    }
    Status st = load_page_info(lv, child);
    if (!st.ok()) {
      lv.page.Release();
      return st;
    }
  }
  if (lv.info.table != is_table_) {
    return Status::Corruption("page " + std::to_string(child) +
                              " mixes table and index b-tree pages");
  }
  if (lv.info.ncell == 0 && !allow_empty_pages_) {
    return Status::Corruption("page " + std::to_string(child) + " is an empty non-root page");
  }
  depth_ = d;
  lv.idx = 0;
  return Status::OK();
}

Status BtCursor::load_cell() {
  const Level& lv = stack_[depth_];
  const uint16_t off = read_cell_ptr(lv.page.data(), lv.info.ptrs_off, lv.idx);
  if (!parse_cell_header(lv.page.data(), lv.info, off, &cell_)) {
    return corrupt_cell(lv.info.pgno, lv.idx);
  }
  state_ = State::kValid;
  return Status::OK();
}

Status BtCursor::move_to_leftmost() {
  while (!stack_[depth_].info.leaf) {
    stack_[depth_].idx = 0;
    ENGINE_RETURN_IF_ERROR(push_child(child_at(stack_[depth_], 0)));
  }
  Level& lv = stack_[depth_];
  lv.idx = 0;
  if (lv.info.ncell == 0) {
    state_ = State::kInvalid;  // only an empty root gets here
    return Status::OK();
  }
  return load_cell();
}

Status BtCursor::move_to_rightmost() {
  while (!stack_[depth_].info.leaf) {
    Level& lv = stack_[depth_];
    lv.idx = lv.info.ncell;
    ENGINE_RETURN_IF_ERROR(push_child(lv.info.right_child));
  }
  Level& lv = stack_[depth_];
  if (lv.info.ncell == 0) {
    state_ = State::kInvalid;
    return Status::OK();
  }
  lv.idx = lv.info.ncell - 1;
  return load_cell();
}

Status BtCursor::first() {
  state_ = State::kInvalid;
  ENGINE_RETURN_IF_ERROR(move_to_root());
  return move_to_leftmost();
}

Status BtCursor::last() {
  state_ = State::kInvalid;
  ENGINE_RETURN_IF_ERROR(move_to_root());
  return move_to_rightmost();
}

Status BtCursor::step_next() {
  descend_leaf_ = -1;
  Level* lv = &stack_[depth_];
  if (!lv->info.leaf) {  // on an index entry in an interior page
    ++lv->idx;
    ENGINE_RETURN_IF_ERROR(push_child(child_at(*lv, lv->idx)));
    return move_to_leftmost();
  }
  if (++lv->idx < lv->info.ncell) return load_cell();
  while (depth_ > 0) {
    --depth_;
    lv = &stack_[depth_];
    if (lv->idx < lv->info.ncell) {
      if (!is_table_) return load_cell();
      ++lv->idx;
      ENGINE_RETURN_IF_ERROR(push_child(child_at(*lv, lv->idx)));
      return move_to_leftmost();
    }
  }
  state_ = State::kInvalid;
  return Status::OK();
}

Status BtCursor::step_prev() {
  descend_leaf_ = -1;
  Level* lv = &stack_[depth_];
  if (!lv->info.leaf) {
    ENGINE_RETURN_IF_ERROR(push_child(child_at(*lv, lv->idx)));
    return move_to_rightmost();
  }
  if (lv->idx > 0) {
    --lv->idx;
    return load_cell();
  }
  while (depth_ > 0) {
    --depth_;
    lv = &stack_[depth_];
    if (lv->idx > 0) {
      --lv->idx;
      if (!is_table_) return load_cell();
      ENGINE_RETURN_IF_ERROR(push_child(child_at(*lv, lv->idx)));
      return move_to_rightmost();
    }
  }
  state_ = State::kInvalid;
  return Status::OK();
}

Status BtCursor::next() {
  if (state_ == State::kSaved) {
    bool exact;
    ENGINE_RETURN_IF_ERROR(restore(&exact));
    if (!exact) return Status::OK();  // already on the entry after the saved key
  }
  if (state_ != State::kValid) return Status::OK();
  return step_next();
}

Status BtCursor::prev() {
  if (state_ == State::kSaved) {
    bool exact;
    ENGINE_RETURN_IF_ERROR(restore(&exact));
    if (!exact && state_ != State::kValid) return last();
  }
  if (state_ != State::kValid) return Status::OK();
  return step_prev();
}

Status BtCursor::settle_after_descend() {
  Level& lv = stack_[depth_];
  if (lv.idx < lv.info.ncell) return load_cell();
  if (lv.info.ncell == 0) {
    state_ = State::kInvalid;
    return Status::OK();
  }
  lv.idx = lv.info.ncell - 1;
  return step_next();
}

bool BtCursor::seek_in_leaf(int64_t rowid, Status* st) {
  Level& lv = stack_[depth_];
  const uint8_t* page = lv.page.data();
  const PageInfo& pg = lv.info;
  if (!pg.leaf || !pg.table || lv.idx >= pg.ncell) return false;
  if (cell_.key == rowid) return true;
  // The rowid belongs to this leaf when it lies between the leaf's first
  // and last keys; search only the side of the current entry it is on.
  int lo, hi;
  int64_t key;
  if (cell_.key < rowid) {
    lo = lv.idx + 1;
    hi = pg.ncell - 1;
    if (lo <= hi && !table_cell_key(page, pg, hi, &key)) return false;
    if (lo > hi || key < rowid) {
      // Past this leaf: past the whole tree when the leaf is the rightmost
      // one, and then the rowid would be appended here (rowid-order inserts
      // find their place without a descent, like SQLite's BTCF_AtLast).
      for (int d = 0; d < depth_; ++d) {
        if (stack_[d].idx != stack_[d].info.ncell) return false;
      }
      lv.idx = pg.ncell;
      state_ = State::kInvalid;
      append_hint_ = true;
      append_depth_ = depth_;
      append_rowid_ = rowid;
      *st = Status::OK();
      return true;
    }
  } else {
    lo = 0;
    hi = lv.idx;
    if (lo == hi) return false;
    if (!table_cell_key(page, pg, 0, &key) || key > rowid) return false;
  }
  // Lower bound in [lo, hi]: the entry at hi is known to be >= rowid.
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (!table_cell_key(page, pg, mid, &key)) return false;
    if (key < rowid) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  lv.idx = lo;
  append_hint_ = false;
  *st = load_cell();
  return true;
}

Status BtCursor::land_after_insert(int leaf, int idx) {
  Level& lv = stack_[leaf];
  append_hint_ = false;
  descend_leaf_ = -1;
  Status st =
      parse_page_header(lv.page.data(), lv.info.pgno, tree_->pager_->usable_size(), &lv.info);
  if (!st.ok() || idx >= lv.info.ncell) {
    close();
    return st;
  }
  depth_ = leaf;
  lv.idx = idx;
  return load_cell();
}

Status BtCursor::seek(int64_t rowid, bool* found) {
  if (state_ == State::kValid && is_table_) {
    // Random probes (a join on an unordered key, rowids read from an
    // index) rarely stay in the leaf: after a few misses in a row, stop
    // trying for a while, longer each time the pattern stays random (16,
    // 32, 64, then 128 seeks), so that a random stream pays ~1 in 40 tries
    // instead of 1 in 5; one hit starts over at 16.
    if (leaf_skip_ > 0) {
      --leaf_skip_;
    } else {
      Status st;
      if (seek_in_leaf(rowid, &st)) {
        ENGINE_RETURN_IF_ERROR(st);
        leaf_misses_ = 0;
        leaf_rounds_ = 0;
        if (found != nullptr) *found = state_ == State::kValid && cell_.key == rowid;
        return Status::OK();
      }
      if (++leaf_misses_ >= 4) {
        leaf_misses_ = 0;
        leaf_skip_ = static_cast<uint8_t>(16u << leaf_rounds_);
        if (leaf_rounds_ < 3) ++leaf_rounds_;
      }
    }
  }
  ENGINE_RETURN_IF_ERROR(descend_table(rowid));
  const int leaf = depth_;
  const bool past_leaf = stack_[leaf].idx >= stack_[leaf].info.ncell;
  ENGINE_RETURN_IF_ERROR(settle_after_descend());
  if (found != nullptr) *found = state_ == State::kValid && cell_.key == rowid;
  // Past the end of the tree: settling changed no index on the path, which
  // still says where the rowid would be appended.
  if (past_leaf && state_ == State::kInvalid) {
    append_hint_ = true;
    append_depth_ = leaf;
    append_rowid_ = rowid;
  }
  return Status::OK();
}

Status BtCursor::read_payload(const uint8_t* page, const CellInfo& c, std::span<const uint8_t>* out,
                              std::vector<uint8_t>* buf) {
  if (c.overflow == 0 && c.payload_size == c.local) {
    *out = {page + c.payload_off, c.local};
    return Status::OK();
  }
  Pager& pager = *tree_->pager_;
  const uint32_t usable = pager.usable_size();
  const uint64_t npages = overflow_page_count(c.payload_size, c.local, usable);
  if (npages > pager.page_count()) {
    return Status::Corruption("payload of " + std::to_string(c.payload_size) +
                              " bytes is larger than the database");
  }
  buf->resize(c.payload_size);
  std::memcpy(buf->data(), page + c.payload_off, c.local);
  uint64_t done = c.local;
  uint32_t pgno = c.overflow;
  for (uint64_t i = 0; i < npages; ++i) {
    if (pgno < 2 || pgno > pager.page_count()) {
      return Status::Corruption("overflow chain points at page " + std::to_string(pgno));
    }
    ENGINE_ASSIGN_OR_RETURN(PageRef ov, pager.Get(pgno));
    const uint64_t n = std::min<uint64_t>(usable - 4, c.payload_size - done);
    std::memcpy(buf->data() + done, ov.data() + 4, n);
    done += n;
    pgno = get_u32(ov.data());
  }
  if (pgno != 0) {
    return Status::Corruption("overflow chain is longer than its payload (a cycle?)");
  }
  *out = {buf->data(), buf->size()};
  return Status::OK();
}

Status BtCursor::payload_slow(std::span<const uint8_t>* out) {
  if (state_ == State::kSaved) {
    bool exact;
    ENGINE_RETURN_IF_ERROR(restore(&exact));
    if (!exact) return Status::NotFound("the cursor's entry was deleted");
  }
  if (state_ != State::kValid) return Status::InvalidArgument("cursor is not on an entry");
  if (!stack_[depth_].info.leaf && is_table_) {
    return Status::InvalidArgument("cursor is not on an entry");
  }
  return read_payload(stack_[depth_].page.data(), cell_, out, &overflow_buf_);
}

Status BtCursor::compare_cell(const Level& lv, int idx, const Value* key, int n, int* cmp) {
  if (compare_cell_local(lv.page.data(), lv.info, idx, key, n, cmp)) return Status::OK();
  CellInfo c;
  if (!parse_cell_header(lv.page.data(), lv.info,
                         read_cell_ptr(lv.page.data(), lv.info.ptrs_off, idx), &c)) {
    return corrupt_cell(lv.info.pgno, idx);
  }
  std::span<const uint8_t> rec;
  ENGINE_RETURN_IF_ERROR(read_payload(lv.page.data(), c, &rec, &key_buf_));
  return compare_record(rec.data(), rec.size(), key, n, {order_.get(), norder_}, cmp);
}

Status BtCursor::descend_index(const Value* key, int n, bool strictly_greater) {
  state_ = State::kInvalid;
  ENGINE_RETURN_IF_ERROR(move_to_root());
  if (is_table_) return Status::InvalidArgument("index seek on a table b-tree");
  for (;;) {
    Level& lv = stack_[depth_];
    // A copy of the page's facts, as in descend_table: no store in the
    // search can change them, which g++ cannot see through the cursor.
    const uint8_t* page = lv.page.data();
    const PageInfo pg = lv.info;
    int lo = 0;
    int hi = pg.ncell;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      int cmp;
      if (!compare_cell_local(page, pg, mid, key, n, &cmp)) {
        ENGINE_RETURN_IF_ERROR(compare_cell(lv, mid, key, n, &cmp));
      }
      if (cmp < 0 || (strictly_greater && cmp == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    lv.idx = lo;
    if (lv.info.leaf) {
      descend_leaf_ = depth_;
      return Status::OK();
    }
    ENGINE_RETURN_IF_ERROR(push_child(child_at(lv, lo)));
  }
}

Status BtCursor::seek_index(const Value* key, int n, SeekOp op, bool* exact) {
  const bool gt = op == SeekOp::kGT || op == SeekOp::kLE;
  ENGINE_RETURN_IF_ERROR(descend_index(key, n, gt));
  // The lower bound is in this leaf, or else it is the interior entry of the
  // nearest ancestor that was entered left of its right child.
  Level* lv = &stack_[depth_];
  if (lv->idx < lv->info.ncell) {
    ENGINE_RETURN_IF_ERROR(load_cell());
  } else {
    state_ = State::kInvalid;
    while (depth_ > 0) {
      --depth_;
      lv = &stack_[depth_];
      if (lv->idx < lv->info.ncell) {
        ENGINE_RETURN_IF_ERROR(load_cell());
        break;
      }
    }
  }
  if (op == SeekOp::kLE || op == SeekOp::kLT) {
    if (state_ == State::kValid) {
      ENGINE_RETURN_IF_ERROR(step_prev());
    } else {
      ENGINE_RETURN_IF_ERROR(last());
    }
  }
  if (exact != nullptr) {
    *exact = false;
    if (state_ == State::kValid) {
      int cmp;
      ENGINE_RETURN_IF_ERROR(compare_cell(stack_[depth_], stack_[depth_].idx, key, n, &cmp));
      *exact = cmp == 0;
    }
  }
  return Status::OK();
}

Status BtCursor::save() {
  append_hint_ = false;
  descend_leaf_ = -1;
  if (state_ == State::kValid) {
    if (is_table_) {
      saved_rowid_ = cell_.key;
    } else {
      std::span<const uint8_t> rec;
      ENGINE_RETURN_IF_ERROR(read_payload(stack_[depth_].page.data(), cell_, &rec, &overflow_buf_));
      saved_key_.assign(rec.begin(), rec.end());
    }
    state_ = State::kSaved;
  }
  release_pages();
  return Status::OK();
}

Status BtCursor::restore(bool* exact) {
  *exact = false;
  if (is_table_) {
    const int64_t key = saved_rowid_;
    ENGINE_RETURN_IF_ERROR(seek(key, exact));
    return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(saved_reader_.Parse(saved_key_.data(), saved_key_.size()));
  saved_values_.clear();
  for (int i = 0; i < saved_reader_.column_count(); ++i) {
    saved_values_.push_back(saved_reader_.column(i));
  }
  return seek_index(saved_values_.data(), static_cast<int>(saved_values_.size()), SeekOp::kGE,
                    exact);
}

}  // namespace engine
