// TPC-C's nine tables (the columns the five transactions touch, in the
// standard shapes: composite primary keys, the customer-by-name and
// orders-by-customer indexes).
#pragma once

namespace bench {

inline constexpr const char* kTpccSchema = R"(
CREATE TABLE warehouse(w_id INTEGER PRIMARY KEY, w_name TEXT, w_street_1 TEXT, w_city TEXT,
  w_state TEXT, w_zip TEXT, w_tax REAL, w_ytd REAL);
CREATE TABLE district(d_id INTEGER, d_w_id INTEGER, d_name TEXT, d_street_1 TEXT, d_city TEXT,
  d_state TEXT, d_zip TEXT, d_tax REAL, d_ytd REAL, d_next_o_id INTEGER,
  PRIMARY KEY(d_w_id, d_id));
CREATE TABLE customer(c_id INTEGER, c_d_id INTEGER, c_w_id INTEGER, c_first TEXT, c_middle TEXT,
  c_last TEXT, c_street_1 TEXT, c_city TEXT, c_state TEXT, c_zip TEXT, c_phone TEXT,
  c_since INTEGER, c_credit TEXT, c_credit_lim REAL, c_discount REAL, c_balance REAL,
  c_ytd_payment REAL, c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data TEXT,
  PRIMARY KEY(c_w_id, c_d_id, c_id));
CREATE INDEX customer_name ON customer(c_w_id, c_d_id, c_last, c_first);
CREATE TABLE history(h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER,
  h_w_id INTEGER, h_date INTEGER, h_amount REAL, h_data TEXT);
CREATE TABLE new_order(no_o_id INTEGER, no_d_id INTEGER, no_w_id INTEGER,
  PRIMARY KEY(no_w_id, no_d_id, no_o_id));
CREATE TABLE orders(o_id INTEGER, o_d_id INTEGER, o_w_id INTEGER, o_c_id INTEGER,
  o_entry_d INTEGER, o_carrier_id INTEGER, o_ol_cnt INTEGER, o_all_local INTEGER,
  PRIMARY KEY(o_w_id, o_d_id, o_id));
CREATE INDEX orders_customer ON orders(o_w_id, o_d_id, o_c_id, o_id);
CREATE TABLE order_line(ol_o_id INTEGER, ol_d_id INTEGER, ol_w_id INTEGER, ol_number INTEGER,
  ol_i_id INTEGER, ol_supply_w_id INTEGER, ol_delivery_d INTEGER, ol_quantity INTEGER,
  ol_amount REAL, ol_dist_info TEXT, PRIMARY KEY(ol_w_id, ol_d_id, ol_o_id, ol_number));
CREATE TABLE item(i_id INTEGER PRIMARY KEY, i_im_id INTEGER, i_name TEXT, i_price REAL,
  i_data TEXT);
CREATE TABLE stock(s_i_id INTEGER, s_w_id INTEGER, s_quantity INTEGER, s_dist TEXT,
  s_ytd INTEGER, s_order_cnt INTEGER, s_remote_cnt INTEGER, s_data TEXT,
  PRIMARY KEY(s_w_id, s_i_id));
)";

}  // namespace bench
