-- gpucap results database: the statistics views, schema version 5.
--
-- t975         the Student t quantile t(0.975, df) for df = 1 .. 30 (from GSL's gsl_cdf_tdist_Pinv, to 6
--              decimals): SQLite has no t quantile. point_stats uses 1.96, the normal quantile, for df > 30;
--              that understates the half-width by at most 4% (t(0.975, 31) = 2.0395).
-- point_stats  one row per (sweep, point, metric) over the point's runs with status 'ok' (failed runs and
--              NULL values left out): n, the mean, the sample standard deviation (n - 1 in the denominator;
--              NULL when n < 2) and ci95, the half-width of the 95% confidence interval of the mean,
--              t(0.975, n - 1) stddev / sqrt(n) (NULL when n < 2): the interval is mean +- ci95, as
--              `gpucap compare` computes it. sweep is the sweep's name; name the metric's. The standard
--              deviation is computed in two passes (deviations from the mean), never as sum(x^2) - n mean^2.
--              It uses sqrt(), one of SQLite's built-in math functions (present since SQLite 3.35 when built
--              with them, as the sqlite3 shell and Python's sqlite3 module usually are).
--
-- Like summary_view.sql, this script holds only views built from the tables; the store runs it after the
-- tables when it creates a file, and migrations from earlier versions run it too (dropping the views
-- first). The views read only.

CREATE VIEW t975 (df, t) AS VALUES
	(1, 12.706205), (2, 4.302653), (3, 3.182446), (4, 2.776445), (5, 2.570582), (6, 2.446912),
	(7, 2.364624), (8, 2.306004), (9, 2.262157), (10, 2.228139), (11, 2.200985), (12, 2.178813),
	(13, 2.160369), (14, 2.144787), (15, 2.131450), (16, 2.119905), (17, 2.109816), (18, 2.100922),
	(19, 2.093024), (20, 2.085963), (21, 2.079614), (22, 2.073873), (23, 2.068658), (24, 2.063899),
	(25, 2.059539), (26, 2.055529), (27, 2.051831), (28, 2.048407), (29, 2.045230), (30, 2.042272);

CREATE VIEW point_stats AS
WITH v AS (
	SELECT r.sweep_id, r.point, m.name, m.value
	FROM runs AS r JOIN metrics AS m ON m.run_id = r.run_id
	WHERE r.sweep_id IS NOT NULL AND r.status = 'ok' AND m.value IS NOT NULL
), a AS (
	SELECT sweep_id, point, name, count(*) AS n, avg(value) AS mean FROM v GROUP BY sweep_id, point, name
), s AS (
	SELECT a.sweep_id, a.point, a.name, a.n, a.mean,
	       CASE WHEN a.n > 1 THEN sqrt(sum((v.value - a.mean) * (v.value - a.mean)) / (a.n - 1)) END AS stddev
	FROM a JOIN v ON v.sweep_id = a.sweep_id AND v.point = a.point AND v.name = a.name
	GROUP BY a.sweep_id, a.point, a.name
)
SELECT s.sweep_id, w.name AS sweep, s.point, s.name, s.n, s.mean, s.stddev,
       CASE WHEN s.n > 1 THEN coalesce((SELECT t FROM t975 WHERE df = s.n - 1), 1.96) * s.stddev / sqrt(s.n)
       END AS ci95
FROM s JOIN sweeps AS w ON w.sweep_id = s.sweep_id;
