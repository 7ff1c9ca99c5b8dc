SELECT DISTINCT typeof(w), length(x), hex(w), coalesce(x, 'none'), substr(k, 2), abs(v - 3), round(v, 1), CAST(v AS INTEGER), v / 0, id % 7, -id, ~id, id << 2 FROM t2;
