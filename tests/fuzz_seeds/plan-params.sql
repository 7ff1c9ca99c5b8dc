EXPLAIN QUERY PLAN SELECT * FROM t1 WHERE b = 112 AND c > 100;
SELECT min(a), max(e), avg(c), total(d), group_concat(b, '-') FROM t1 WHERE b BETWEEN ? AND ?2;
