SELECT t2.k, t3.r FROM t2 LEFT JOIN t3 ON t3.p = t2.id % 4 WHERE t2.v IN (SELECT r FROM t3) OR t2.x LIKE 'z%' GROUP BY t2.k HAVING count(*) > 0;
