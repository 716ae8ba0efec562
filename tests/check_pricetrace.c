/*
 * check_pricetrace: Spot price histories (models/formats/pricetrace.h).
 *
 * tests/data/spot/prices.{json,txt,tsv} hold the same eight rows, written for these tests, in the three
 * forms (CLI JSON newest first, CLI text, the archives' tab-separated form oldest first): p5.48xlarge in
 * us-east-1a at 00:00 10.5, 01:30 12.25, 03:00 9.0, a Windows row at 00:30 (99, skipped), p5.48xlarge in
 * us-east-1b at 00:45 11.0 and 02:15 13.5, and g6e.xlarge in both zones. Every file in
 * tests/data/spot/bad/price-* is listed in bad[] with the message it must give. Prices are compared with a
 * tolerance of 1e-12 (they are parsed decimals, never computed).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pricetrace.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define SPOT TEST_DATA_DIR "/spot/"
#define TOL 1e-12
#define US INT64_C(1000000)
#define T0 (INT64_C(1735689600) * US)  /* 2025-01-01T00:00:00Z */
#define HM(h, m) (T0 + ((int64_t)(h) * 3600 + (m) * 60) * US)

static struct pricetrace load_ok(const char *path, const char *type, const char *zone)
{
	struct pricetrace pt;
	struct diag d = { "" };
	int rc = pricetrace_load(&pt, path, NULL, type, zone, &d);

	ck_assert_msg(rc == STATUS_OK, "%s: rc %d: %s", path, rc, d.msg);
	return pt;
}

/* Write text to a fresh file, load it, remove it; returns the status and the message in *d. */
static int load_text(const char *text, const char *zone, struct pricetrace *pt, struct diag *d)
{
	char *path = test_write_file("prices.txt", text);
	int rc;

	ck_assert_ptr_nonnull(path);
	rc = pricetrace_load(pt, path, "inline.txt", "p5.48xlarge", zone, d);
	test_remove_file(path);
	return rc;
}

static void assert_same(const struct pricetrace *a, const struct pricetrace *b)
{
	ck_assert_int_eq(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		ck_assert_int_eq(a->at_unix_us[i], b->at_unix_us[i]);
		ck_assert_double_eq_tol(a->usd_per_h[i], b->usd_per_h[i], TOL);
	}
}

START_TEST(json_steps_hold_until_next_change)
{
	struct pricetrace pt = load_ok(SPOT "prices.json", "p5.48xlarge", "us-east-1a");

	ck_assert_int_eq(pt.n, 3);  /* the Windows row at 00:30 is not a Linux price */
	ck_assert_int_eq(pt.at_unix_us[0], HM(0, 0));
	ck_assert_int_eq(pt.at_unix_us[2], HM(3, 0));
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(0, 0) - 3600 * US), 10.5, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(0, 0)), 10.5, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(0, 30)), 10.5, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(1, 30) - US), 10.5, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(1, 30) - 1), 10.5, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(1, 30)), 12.25, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(2, 59)), 12.25, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(3, 0)), 9.0, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, INT64_MAX), 9.0, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, INT64_MIN), 10.5, TOL);
	pricetrace_fini(&pt);
}
END_TEST

START_TEST(cap_lowers_prices_above_the_bound)
{
	struct pricetrace pt = load_ok(SPOT "prices.json", "p5.48xlarge", "us-east-1a");

	/* 10.5, 12.25, 9.0 capped at 10.5: only 12.25 is above (10.5 is not: "not exceeding") */
	ck_assert_int_eq(pricetrace_cap(&pt, 10.5), 1);
	ck_assert_double_eq_tol(pt.usd_per_h[0], 10.5, TOL);
	ck_assert_double_eq_tol(pt.usd_per_h[1], 10.5, TOL);
	ck_assert_double_eq_tol(pt.usd_per_h[2], 9.0, TOL);
	ck_assert_int_eq(pt.at_unix_us[1], HM(1, 30));  /* times are kept */
	ck_assert_int_eq(pricetrace_cap(&pt, 8.0), 3);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(3, 0)), 8.0, TOL);
	ck_assert_int_eq(pricetrace_cap(&pt, 100.0), 0);
	pricetrace_fini(&pt);
}
END_TEST

START_TEST(zone_filter_picks_its_rows)
{
	struct pricetrace b = load_ok(SPOT "prices.json", "p5.48xlarge", "us-east-1b");
	struct pricetrace g = load_ok(SPOT "prices.json", "g6e.xlarge", "us-east-1b");

	ck_assert_int_eq(b.n, 2);
	ck_assert_int_eq(b.at_unix_us[0], HM(0, 45));
	ck_assert_double_eq_tol(b.usd_per_h[0], 11.0, TOL);
	ck_assert_int_eq(b.at_unix_us[1], HM(2, 15));
	ck_assert_double_eq_tol(b.usd_per_h[1], 13.5, TOL);
	ck_assert_int_eq(g.n, 1);
	ck_assert_int_eq(g.at_unix_us[0], HM(0, 20));
	ck_assert_double_eq_tol(pricetrace_at(&g, 0), 0.9, TOL);
	pricetrace_fini(&b);
	pricetrace_fini(&g);
}
END_TEST

START_TEST(text_and_tsv_match_json)
{
	struct pricetrace j = load_ok(SPOT "prices.json", "p5.48xlarge", "us-east-1a");
	struct pricetrace t = load_ok(SPOT "prices.txt", "p5.48xlarge", "us-east-1a");
	struct pricetrace v = load_ok(SPOT "prices.tsv", "p5.48xlarge", "use1-az4");
	struct pricetrace jb = load_ok(SPOT "prices.json", "p5.48xlarge", "us-east-1b");
	struct pricetrace vb = load_ok(SPOT "prices.tsv", "p5.48xlarge", "use1-az6");

	assert_same(&j, &t);
	assert_same(&j, &v);
	assert_same(&jb, &vb);
	pricetrace_fini(&j);
	pricetrace_fini(&t);
	pricetrace_fini(&v);
	pricetrace_fini(&jb);
	pricetrace_fini(&vb);
}
END_TEST

START_TEST(single_zone_needs_no_filter)
{
	struct pricetrace pt;
	struct diag d = { "" };
	const char *text = "use1-az4\tp5.48xlarge\tLinux/UNIX\t10.5\t2025-01-01T00:00:00Z\n"
			   "use1-az4\tp5.48xlarge\tLinux/UNIX (Amazon VPC)\t11.5\t2025-01-01T01:00:00Z\n";

	ck_assert_int_eq(load_text(text, NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.n, 2);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(1, 0)), 11.5, TOL);
	pricetrace_fini(&pt);
}
END_TEST

START_TEST(equal_timestamps_keep_last_in_file)
{
	struct pricetrace pt;
	struct diag d = { "" };

	ck_assert_int_eq(load_text("use1-az4\tp5.48xlarge\tLinux/UNIX\t10.5\t2025-01-01T00:00:00Z\n"
				   "use1-az4\tp5.48xlarge\tLinux/UNIX\t7.0\t2025-01-01T01:00:00Z\n"
				   "use1-az4\tp5.48xlarge\tLinux/UNIX\t8.0\t2025-01-01T01:00:00+00:00\n"
				   "use1-az4\tp5.48xlarge\tLinux/UNIX\t9.0\t2025-01-01T00:30:00Z\n",
				   NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.n, 3);
	ck_assert_int_eq(pt.at_unix_us[2], HM(1, 0));
	ck_assert_double_eq_tol(pt.usd_per_h[2], 8.0, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(0, 45)), 9.0, TOL);
	pricetrace_fini(&pt);
}
END_TEST

START_TEST(fractional_seconds_kept_to_the_microsecond)
{
	struct pricetrace pt;
	struct diag d = { "" };
	const char *text = "use1-az4\tp5.48xlarge\tLinux/UNIX\t1\t2025-01-01T00:00:00.5Z\n"
			   "use1-az4\tp5.48xlarge\tLinux/UNIX\t2\t2025-01-01T00:00:01.0000019+00:00\n";

	ck_assert_int_eq(load_text(text, NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.at_unix_us[0], T0 + 500000);
	ck_assert_int_eq(pt.at_unix_us[1], T0 + US + 2);  /* .0000019: past the microsecond, rounded (1.9 us -> 2) */
	pricetrace_fini(&pt);
}
END_TEST

START_TEST(crlf_blank_lines_and_page_token)
{
	struct pricetrace pt;
	struct diag d = { "" };
	const char *good = "\r\nSPOTPRICEHISTORY\tus-east-1a\tp5.48xlarge\tLinux/UNIX\t10.5\t"
			   "2025-01-01T00:00:00.000Z\r\n\r\nNEXTTOKEN\tabc\r\n";
	const char *bad_line_4 = "\r\nuse1-az4\tp5.48xlarge\tLinux/UNIX\t10.5\t2025-01-01T00:00:00Z\r\n"
				 "\r\nuse1-az4\tp5.48xlarge\tLinux/UNIX\tx\t2025-01-01T00:00:00Z\r\n";

	ck_assert_int_eq(load_text(good, NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.n, 1);
	pricetrace_fini(&pt);
	ck_assert_int_eq(load_text(bad_line_4, NULL, &pt, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "inline.txt:4:33: bad price 'x'; expected a decimal number of USD per hour "
			 ">= 0");
}
END_TEST

START_TEST(json_number_price_and_no_product)
{
	struct pricetrace pt;
	struct diag d = { "" };
	const char *text = "{\"SpotPriceHistory\": [{\"AvailabilityZone\": \"us-east-1a\", "
			   "\"InstanceType\": \"p5.48xlarge\", \"SpotPrice\": 9.25, "
			   "\"Timestamp\": \"2025-01-01T00:00:00Z\"}], \"NextToken\": \"\"}";

	ck_assert_int_eq(load_text(text, NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.n, 1);
	ck_assert_double_eq_tol(pt.usd_per_h[0], 9.25, TOL);
	pricetrace_fini(&pt);
}
END_TEST

/* Rows past the first 64 KiB block, one of them split across it, and an error line counted across it. */
START_TEST(streams_across_blocks)
{
	const char *row = "use1-az4\tp5.48xlarge\tLinux/UNIX\t%d.%02d\t2025-01-01T%02d:%02d:00Z\n";
	size_t size = 4000 * 64, o = 0;
	char *text = malloc(size);
	struct pricetrace pt;
	struct diag d = { "" };

	for (int i = 0; i < 1440; i++)
		o += (size_t)snprintf(text + o, size - o, row, i / 100, i % 100, i / 60, i % 60);
	ck_assert_uint_gt(o, 64 * 1024);
	ck_assert_int_eq(load_text(text, NULL, &pt, &d), STATUS_OK);
	ck_assert_int_eq(pt.n, 1440);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(23, 59)), 14.39, TOL);
	ck_assert_double_eq_tol(pricetrace_at(&pt, HM(18, 7) + 59 * US), 10.87, TOL);
	pricetrace_fini(&pt);
	snprintf(text + o, size - o, "use1-az4\tp5.48xlarge\tLinux/UNIX\t-2\t2025-01-02T00:00:00Z\n");
	ck_assert_int_eq(load_text(text, NULL, &pt, &d), STATUS_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.msg, "inline.txt:1441:33: negative price '-2'"));
	free(text);
}
END_TEST

START_TEST(missing_file_is_enoent)
{
	struct pricetrace pt;
	struct diag d = { "" };

	ck_assert_int_eq(pricetrace_load(&pt, SPOT "no-such.json", NULL, "p5.48xlarge", NULL, &d),
			 STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, "no-such.json: cannot open"));
	ck_assert_ptr_null(pt.at_unix_us);
	ck_assert_int_eq(pt.n, 0);
}
END_TEST

START_TEST(unknown_zone_names_the_zones)
{
	struct pricetrace pt;
	struct diag d = { "" };

	ck_assert_int_eq(pricetrace_load(&pt, SPOT "prices.json", "history", "p5.48xlarge", "us-east-1z", &d),
			 STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "history: no Linux/UNIX rows for instance type 'p5.48xlarge' in zone "
			 "'us-east-1z'; expected one of its zones: us-east-1a, us-east-1b");
	ck_assert_int_eq(pt.n, 0);
}
END_TEST

START_TEST(libfyaml_prints_nothing)
{
	struct pricetrace pt;
	struct diag d = { "" };
	FILE *err = tmpfile();
	int saved = dup(2);

	ck_assert_ptr_nonnull(err);
	fflush(stderr);
	dup2(fileno(err), 2);
	pricetrace_load(&pt, SPOT "bad/price-truncated.json", NULL, "p5.48xlarge", NULL, &d);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq(lseek(fileno(err), 0, SEEK_END), 0);
	fclose(err);
	ck_assert_ptr_nonnull(strstr(d.msg, "invalid JSON"));
}
END_TEST

START_TEST(fini_accepts_null_and_zeroed)
{
	struct pricetrace pt = { 0 };

	pricetrace_fini(NULL);
	pricetrace_fini(&pt);
	pricetrace_fini(&pt);
}
END_TEST

/* ---- the bad files -------------------------------------------------------------------------------- */

static const struct {
	const char *file;   /* under tests/data/spot/bad/ */
	const char *zone;   /* asked for, or NULL */
	const char *msg;    /* must appear in the message */
} bad[] = {
	{ "price-bad-price.txt", "us-east-1a",
	  "price-bad-price.txt:1:52: bad price '10,50'; expected a decimal" },
	{ "price-bad-timestamp.json", "us-east-1a",
	  "price-bad-timestamp.json:8:27: SpotPriceHistory[0].Timestamp: bad timestamp "
	  "'2025-01-01T03:00:00-05:00'; expected ISO-8601 UTC" },
	{ "price-bad-timestamp.tsv", NULL,
	  "price-bad-timestamp.tsv:2:43: bad timestamp '2025-01-01 01:30:00'" },
	{ "price-binary.tsv", NULL,
	  "price-binary.tsv:2: a NUL byte or bytes that are not UTF-8; expected a text file" },
	{ "price-blank.tsv", NULL,
	  "price-blank.tsv:1: the file is empty" },
	{ "price-empty.txt", NULL,
	  "price-empty.txt:1: the file is empty" },
	{ "price-malformed-line.txt", "us-east-1a",
	  "price-malformed-line.txt:3: 1 column after SPOTPRICEHISTORY; expected 5 (zone, instance type, "
	  "product, price, timestamp)" },
	{ "price-missing-column.tsv", NULL,
	  "price-missing-column.tsv:2: 4 columns; expected 5 (zone, instance type, product, price, "
	  "timestamp)" },
	{ "price-missing-key.json", NULL,
	  "price-missing-key.json:4:14: SpotPriceHistory[0]: missing key 'Timestamp'" },
	{ "price-negative.json", NULL,
	  "price-negative.json:14:27: SpotPriceHistory[1].SpotPrice: negative price '-1.500000'" },
	{ "price-no-history.json", NULL,
	  "price-no-history.json:2:6: no key SpotPriceHistory" },
	{ "price-no-type.tsv", NULL,
	  "price-no-type.tsv: no Linux/UNIX rows for instance type 'p5.48xlarge'; expected one of the "
	  "types present: g6e.xlarge, p4d.24xlarge" },
	{ "price-not-list.json", NULL,
	  "price-not-list.json:3:10: SpotPriceHistory: expected a list of price records, got a mapping" },
	{ "price-number-zone.json", NULL,
	  "price-number-zone.json:1:44: SpotPriceHistory[0].AvailabilityZone: expected a string, got '1'" },
	{ "price-several-zones.tsv", NULL,
	  "price-several-zones.tsv:3: rows for 'p5.48xlarge' in several availability zones (use1-az4, "
	  "use1-az6); expected a zone to be chosen" },
	{ "price-truncated.json", NULL,
	  "price-truncated.json:8:27: invalid JSON: " },
};

#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_file_fails_with_its_message)
{
	char path[512];
	struct pricetrace pt;
	struct diag d = { "" };

	snprintf(path, sizeof path, SPOT "bad/%s", bad[_i].file);
	ck_assert_int_eq(pricetrace_load(&pt, path, bad[_i].file, "p5.48xlarge", bad[_i].zone, &d),
			 STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, bad[_i].msg), "%s: got \"%s\"", bad[_i].file, d.msg);
	ck_assert_int_eq(pt.n, 0);
	ck_assert_ptr_null(pt.usd_per_h);
}
END_TEST

/* The label defaults to the path. */
START_TEST(label_defaults_to_path)
{
	struct pricetrace pt;
	struct diag d = { "" };

	pricetrace_load(&pt, SPOT "bad/price-empty.txt", NULL, "p5.48xlarge", NULL, &d);
	ck_assert_str_eq(d.msg, SPOT "bad/price-empty.txt:1: the file is empty; expected a Spot price "
			 "history (`aws ec2 describe-spot-price-history` JSON or tab-separated text)");
}
END_TEST

/* Every price-* file in bad/ is in the table, so none is left untested. */
static const char *bad_file(int i)
{
	return bad[i].file;
}

START_TEST(every_bad_file_is_listed)
{
	test_assert_files_listed(SPOT "bad", "price-", bad_file, NBAD);
}
END_TEST

static Suite *pricetrace_suite(void)
{
	Suite *s = suite_create("pricetrace");
	TCase *tc = tcase_create("core");
	TCase *tb = tcase_create("bad_files");

	tcase_add_test(tc, json_steps_hold_until_next_change);
	tcase_add_test(tc, zone_filter_picks_its_rows);
	tcase_add_test(tc, cap_lowers_prices_above_the_bound);
	tcase_add_test(tc, text_and_tsv_match_json);
	tcase_add_test(tc, single_zone_needs_no_filter);
	tcase_add_test(tc, equal_timestamps_keep_last_in_file);
	tcase_add_test(tc, fractional_seconds_kept_to_the_microsecond);
	tcase_add_test(tc, crlf_blank_lines_and_page_token);
	tcase_add_test(tc, json_number_price_and_no_product);
	tcase_add_test(tc, streams_across_blocks);
	tcase_add_test(tc, missing_file_is_enoent);
	tcase_add_test(tc, unknown_zone_names_the_zones);
	tcase_add_test(tc, libfyaml_prints_nothing);
	tcase_add_test(tc, fini_accepts_null_and_zeroed);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, bad_file_fails_with_its_message, 0, NBAD);
	tcase_add_test(tb, label_defaults_to_path);
	tcase_add_test(tb, every_bad_file_is_listed);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	return test_run_suite(pricetrace_suite());
}
