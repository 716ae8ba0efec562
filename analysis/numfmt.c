/* numfmt: see numfmt.h. */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_DECIMALS 12

/* Text for a value that is not finite, or NULL. */
static const char *not_finite(double v)
{
	if (isnan(v))
		return "\u2013";
	if (isinf(v))
		return v > 0 ? "\u221e" : "-\u221e";
	return NULL;
}

/* Copy src into buf, cut to size. */
static char *put(char *buf, size_t size, const char *src)
{
	if (size > 0)
		snprintf(buf, size, "%s", src);
	return buf;
}

/* The decimal place of the d-th significant digit of |v| > 0, as a count of decimals (may be negative). */
static int place(double v, int d)
{
	return d - 1 - (int)floor(log10(fabs(v)));
}

static int clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

char *numfmt_fixed(double v, int decimals, char *buf, size_t size)
{
	const char *nf = not_finite(v);
	char raw[400], out[520];
	size_t n = 0, digits, lead;
	const char *p = raw;

	if (nf)
		return put(buf, size, nf);
	decimals = clamp(decimals, 0, MAX_DECIMALS);
	snprintf(raw, sizeof raw, "%.*f", decimals, v);
	if (*p == '-') {
		/* "-0.00" is zero: no sign */
		if (strspn(p + 1, "0.") != strlen(p + 1))
			out[n++] = '-';
		p++;
	}
	digits = strcspn(p, ".");
	lead = digits % 3 ? digits % 3 : 3;
	for (size_t i = 0; i < digits; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			out[n++] = ',';
		out[n++] = p[i];
	}
	snprintf(out + n, sizeof out - n, "%s", p + digits);
	return put(buf, size, out);
}

char *numfmt_sig(double v, int sig, char *buf, size_t size)
{
	double r;
	int d;

	if (not_finite(v) || v == 0)
		return numfmt_fixed(v, 0, buf, size);
	sig = clamp(sig, 1, 15);
	d = place(v, sig);
	if (d < 0) {  /* round to tens, hundreds, ...: "21,200,000" */
		double unit = pow(10, -d);
		r = round(v / unit) * unit;
		return numfmt_fixed(r, 0, buf, size);
	}
	numfmt_fixed(v, clamp(d, 0, MAX_DECIMALS), buf, size);
	if (strchr(buf, '.')) {  /* 12.5000 -> 12.5: the zeros claim nothing */
		size_t n = strlen(buf);
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	return buf;
}

char *numfmt_money(double usd, bool cents, char *buf, size_t size)
{
	char num[400], out[420];

	if (not_finite(usd))
		return numfmt_fixed(usd, 0, buf, size);
	numfmt_fixed(fabs(usd), cents ? 2 : 0, num, sizeof num);
	snprintf(out, sizeof out, "%s$%s", usd < 0 && strspn(num, "0.,") != strlen(num) ? "-" : "", num);
	return put(buf, size, out);
}

char *numfmt_percent(double rate, double half, char *buf, size_t size)
{
	char num[400], out[420];
	double p = 100 * rate;
	int d;

	if (not_finite(rate))
		return numfmt_fixed(rate, 0, buf, size);
	if (isfinite(half) && half > 0)
		d = clamp(place(100 * half, 1), 0, 8);
	else if (p == 0)
		d = 0;
	else
		d = clamp(place(p, 3), 0, 8);
	numfmt_fixed(p, d, num, sizeof num);
	snprintf(out, sizeof out, "%s%%", num);
	return put(buf, size, out);
}

char *numfmt_pm(double mean, double half, bool money, char *buf, size_t size)
{
	char m[400], h[400], out[820];
	int d;

	if (!isfinite(half) || half <= 0) {
		if (money)
			return numfmt_money(mean, fabs(mean) < 1000, buf, size);
		return numfmt_sig(mean, 6, buf, size);
	}
	d = place(half, 2);
	if (d < 0) {  /* a half-width of 530 rounds both to tens */
		double unit = pow(10, -d);
		mean = round(mean / unit) * unit;
		half = round(half / unit) * unit;
		d = 0;
	}
	d = clamp(d, 0, MAX_DECIMALS);
	numfmt_fixed(fabs(mean), d, m, sizeof m);
	numfmt_fixed(half, d, h, sizeof h);
	snprintf(out, sizeof out, "%s%s%s \u00b1 %s%s", mean < 0 && strspn(m, "0.,") != strlen(m) ? "-" : "",
		 money ? "$" : "", m, money ? "$" : "", h);
	return put(buf, size, out);
}
