// TPC-C-lite: the five TPC-C transactions over one warehouse, dealt from the
// standard 10/10/1/1/1 deck (New-Order, Payment, Order-Status, Delivery,
// Stock-Level), with 1% of New-Orders rolled back by an unknown item, as the
// specification asks. One benchmark iteration is one transaction.
//
// Reported per transaction type: the p90 latency; overall the
// TpmC-equivalent rate (committed New-Orders per minute of measured time).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "engine/bench/data_gen.h"
#include "engine/bench/row_sink.h"
#include "engine/bench/timing.h"
#include "engine/bench/workloads.h"

namespace bench {

enum TxnType { kNewOrder, kPayment, kOrderStatus, kDelivery, kStockLevel, kTxnTypes };
inline constexpr const char* kTxnNames[kTxnTypes] = {"new_order", "payment", "order_status",
                                                     "delivery", "stock_level"};

template <class Conn>
struct TpccLite {
  static constexpr const char* kName = "tpcc_lite";
  Conn& c;
  TpccSizes z;
  Rng rng{606};
  std::vector<TxnType> deck;
  size_t next_card = 0;
  int64_t clock = 1;  // deterministic "dates"
  std::array<std::vector<double>, kTxnTypes> latencies_us;
  int64_t new_orders_committed = 0;
  std::vector<int64_t> ids_;  // PickCustomer's matches

  StmtPtr<Conn> w_tax, d_next, d_bump, c_info, o_ins, no_ins, i_get, s_get, s_upd, ol_ins;
  StmtPtr<Conn> w_pay, w_name, d_pay, c_by_name, c_pay, h_ins;
  StmtPtr<Conn> c_bal, o_last, ol_of_order;
  StmtPtr<Conn> no_first, no_del, o_cust, o_carrier, ol_deliver, ol_sum, c_deliver;
  StmtPtr<Conn> sl_next, sl_count;

  TpccLite(Conn& conn, const Scale& scale = Scale{}) : c(conn), z(TpccSizes::For(scale)) {
    w_tax = c.prepare("SELECT w_tax FROM warehouse WHERE w_id = ?");
    d_next = c.prepare("SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?");
    d_bump = c.prepare(
        "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?");
    c_info = c.prepare(
        "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND "
        "c_id = ?");
    o_ins = c.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?, NULL, ?, 1)");
    no_ins = c.prepare("INSERT INTO new_order VALUES (?, ?, ?)");
    i_get = c.prepare("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?");
    s_get =
        c.prepare("SELECT s_quantity, s_dist, s_data FROM stock WHERE s_w_id = ? AND s_i_id = ?");
    s_upd = c.prepare(
        "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1 "
        "WHERE s_w_id = ? AND s_i_id = ?");
    ol_ins = c.prepare("INSERT INTO order_line VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)");
    w_pay = c.prepare("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?");
    w_name = c.prepare("SELECT w_name, w_street_1, w_city FROM warehouse WHERE w_id = ?");
    d_pay = c.prepare("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?");
    c_by_name = c.prepare(
        "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? "
        "ORDER BY c_first");
    c_pay = c.prepare(
        "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
        "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
    h_ins = c.prepare("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, 'payment')");
    c_bal = c.prepare(
        "SELECT c_balance, c_first, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND "
        "c_id = ?");
    o_last = c.prepare(
        "SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND "
        "o_c_id = ? ORDER BY o_id DESC LIMIT 1");
    ol_of_order = c.prepare(
        "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
        "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?");
    no_first = c.prepare(
        "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id "
        "LIMIT 1");
    no_del = c.prepare("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?");
    o_cust = c.prepare("SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?");
    o_carrier = c.prepare(
        "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?");
    ol_deliver = c.prepare(
        "UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND "
        "ol_o_id = ?");
    ol_sum = c.prepare(
        "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND "
        "ol_o_id = ?");
    c_deliver = c.prepare(
        "UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 "
        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
    sl_next = c.prepare("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?");
    sl_count = c.prepare(
        "SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND "
        "ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND "
        "s_quantity < ?");
    for (int i = 0; i < 10; ++i) deck.push_back(kNewOrder);
    for (int i = 0; i < 10; ++i) deck.push_back(kPayment);
    deck.push_back(kOrderStatus);
    deck.push_back(kDelivery);
    deck.push_back(kStockLevel);
    next_card = deck.size();
    // Growing inside the timed loop would add reallocations to it.
    for (auto& v : latencies_us) v.reserve(1 << 16);
  }

  TxnType Deal() {
    if (next_card == deck.size()) {
      for (size_t k = deck.size(); k > 1; --k) {
        std::swap(deck[k - 1], deck[static_cast<size_t>(rng.next() % k)]);
      }
      next_card = 0;
    }
    return deck[next_card++];
  }

  // Runs a one-row query; false when it returned no row.
  template <class Out>
  static bool One(typename Conn::Stmt& q, Out& out) {
    bool got = q.step();
    if (got) out.row(q, q.columns());
    q.reset();
    return got;
  }

  // 60% of Payment and Order-Status look the customer up by last name and
  // take the middle one of the matches, per the specification.
  template <class Out>
  int64_t PickCustomer(int d, Out& out) {
    if (rng.range(1, 100) > 60) return rng.range(1, z.customers_per_district);
    const int n = static_cast<int>(rng.range(0, std::min(999, z.customers_per_district - 1)));
    Bind(*c_by_name, int64_t{1}, int64_t{d}, LastName(n));
    ids_.clear();  // a member: no allocation per transaction once it has grown
    while (c_by_name->step()) {
      ids_.push_back(c_by_name->int64(0));
      out.row(*c_by_name, 1);
    }
    c_by_name->reset();
    // The loader gives every n below customers_per_district a customer.
    if (ids_.empty())
      throw BenchError("no customer named " + LastName(n) + " in district " + std::to_string(d));
    return ids_[(ids_.size() - 1) / 2];
  }

  template <class Out>
  void NewOrder(Out& out) {
    const int64_t w = 1, d = rng.range(1, z.districts),
                  cid = rng.range(1, z.customers_per_district);
    const int lines = static_cast<int>(rng.range(5, 15));
    const bool rollback = rng.range(1, 100) == 1;
    c.exec("BEGIN");
    w_tax->bind(1, w);
    One(*w_tax, out);
    Bind(*d_next, w, d);
    d_next->step();
    const int64_t o_id = d_next->int64(1);
    out.row(*d_next, 2);
    d_next->reset();
    Exec(*d_bump, w, d);
    Bind(*c_info, w, d, cid);
    One(*c_info, out);
    Exec(*o_ins, o_id, d, w, cid, clock, int64_t{lines});
    Exec(*no_ins, o_id, d, w);
    for (int l = 1; l <= lines; ++l) {
      const int64_t item = (rollback && l == lines) ? z.items + 1 : rng.range(1, z.items);
      const int64_t qty = rng.range(1, 10);
      i_get->bind(1, item);
      if (!i_get->step()) {  // the unknown item: the whole order rolls back
        i_get->reset();
        c.exec("ROLLBACK");
        return;
      }
      const double price = i_get->real(0);
      out.row(*i_get, 3);
      i_get->reset();
      Bind(*s_get, w, item);
      s_get->step();
      int64_t s_qty = s_get->int64(0);
      out.row(*s_get, 3);
      s_get->reset();
      s_qty = s_qty - qty >= 10 ? s_qty - qty : s_qty - qty + 91;
      Exec(*s_upd, s_qty, qty, w, item);
      Exec(*ol_ins, o_id, d, w, int64_t{l}, item, w, qty, static_cast<double>(qty) * price,
           std::string_view("dist-info-0123456789abc"));
    }
    c.exec("COMMIT");
    ++new_orders_committed;
  }

  template <class Out>
  void Payment(Out& out) {
    const int64_t w = 1, d = rng.range(1, z.districts);
    const double amount = static_cast<double>(rng.range(100, 500000)) / 100.0;
    c.exec("BEGIN");
    Exec(*w_pay, amount, w);
    w_name->bind(1, w);
    One(*w_name, out);
    Exec(*d_pay, amount, w, d);
    const int64_t cid = PickCustomer(static_cast<int>(d), out);
    Exec(*c_pay, amount, amount, w, d, cid);
    Exec(*h_ins, cid, d, w, d, w, clock, amount);
    c.exec("COMMIT");
  }

  template <class Out>
  void OrderStatus(Out& out) {
    const int64_t w = 1, d = rng.range(1, z.districts);
    c.exec("BEGIN");
    const int64_t cid = PickCustomer(static_cast<int>(d), out);
    Bind(*c_bal, w, d, cid);
    One(*c_bal, out);
    Bind(*o_last, w, d, cid);
    if (o_last->step()) {
      const int64_t o_id = o_last->int64(0);
      out.row(*o_last, 3);
      o_last->reset();
      Bind(*ol_of_order, w, d, o_id);
      Drain(*ol_of_order, out);
    } else {
      o_last->reset();
    }
    c.exec("COMMIT");
  }

  template <class Out>
  void Delivery(Out& out) {
    const int64_t w = 1, carrier = rng.range(1, 10);
    c.exec("BEGIN");
    for (int64_t d = 1; d <= z.districts; ++d) {
      Bind(*no_first, w, d);
      if (!no_first->step()) {
        no_first->reset();
        continue;
      }
      const int64_t o_id = no_first->int64(0);
      no_first->reset();
      Exec(*no_del, w, d, o_id);
      Bind(*o_cust, w, d, o_id);
      o_cust->step();
      const int64_t cid = o_cust->int64(0);
      o_cust->reset();
      Exec(*o_carrier, carrier, w, d, o_id);
      Exec(*ol_deliver, clock, w, d, o_id);
      Bind(*ol_sum, w, d, o_id);
      ol_sum->step();
      const double total = ol_sum->real(0);
      out.row(*ol_sum, 1);
      ol_sum->reset();
      Exec(*c_deliver, total, w, d, cid);
    }
    c.exec("COMMIT");
  }

  template <class Out>
  void StockLevel(Out& out) {
    const int64_t w = 1, d = rng.range(1, z.districts), threshold = rng.range(10, 20);
    c.exec("BEGIN");
    Bind(*sl_next, w, d);
    sl_next->step();
    const int64_t next = sl_next->int64(0);
    sl_next->reset();
    Bind(*sl_count, w, d, next, next - 20, w, threshold);
    Drain(*sl_count, out);
    c.exec("COMMIT");
  }

  template <class Out>
  void RunOne(TxnType t, Out& out) {
    ++clock;
    switch (t) {
      case kNewOrder:
        NewOrder(out);
        break;
      case kPayment:
        Payment(out);
        break;
      case kOrderStatus:
        OrderStatus(out);
        break;
      case kDelivery:
        Delivery(out);
        break;
      case kStockLevel:
        StockLevel(out);
        break;
      case kTxnTypes:
        break;
    }
  }

  template <class Out>
  void iterate(Out& out, Timing*) {
    const TxnType t = Deal();
    const auto start = std::chrono::steady_clock::now();
    RunOne(t, out);
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    latencies_us[t].push_back(took.count());
  }

  // The TpmC-equivalent and per-type p90 latencies over what was measured.
  void Report(benchmark::State& state) {
    double total_us = 0;
    for (int t = 0; t < kTxnTypes; ++t) {
      auto& v = latencies_us[t];
      for (double x : v) total_us += x;
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      // Nearest rank: the smallest sample with at least 90% of them at or below.
      state.counters[std::string("p90_us_") + kTxnNames[t]] = v[(v.size() * 9 + 9) / 10 - 1];
      v.clear();
    }
    if (total_us > 0) {
      state.counters["tpmC"] = static_cast<double>(new_orders_committed) / (total_us / 60e6);
    }
    new_orders_committed = 0;
  }

  void verify(Conn& conn, Checksum& out) {
    for (int i = 0; i < 2 * 23; ++i) RunOne(Deal(), out);
    for (const char* t : {"warehouse", "district", "customer", "history", "new_order", "orders",
                          "order_line", "stock"}) {
      ChecksumTable(conn, t, out);
    }
  }
};

}  // namespace bench
