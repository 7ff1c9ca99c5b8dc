BEGIN;
INSERT INTO t2(k, v) VALUES ('n1', 1.5), ('n2', 2.5);
INSERT INTO t2(k, v) VALUES ('n3', 3), ('k4', 4);
UPDATE t2 SET v = v * 2 WHERE id < 20;
SELECT count(*), sum(v) FROM t2;
COMMIT;
