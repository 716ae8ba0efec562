/*
 * numfmt: numbers for people, as the report prints them. Never scientific notation: a number is written in
 * fixed notation whatever its size, with thousands separators ("21,203,000"); money with its currency
 * ("$1,234,567", or "$1,234.56" with cents); a rate (a fraction) as a percentage with the digits its
 * confidence interval supports ("0.60%" when the interval is +-0.05 points: to its first significant digit), or three significant digits
 * without one; a mean and its interval rounded to the interval's own precision (two significant digits of
 * the half-width: "401,910 ± 530"). NaN is written as an en dash ("–"), infinities as "∞" / "-∞". Text is
 * UTF-8.
 *
 * Each function writes into buf (size bytes; the text is cut, never overflows, and is always
 * NUL-terminated when size > 0) and returns buf.
 */
#ifndef GPUCAP_NUMFMT_H
#define GPUCAP_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

/* v with `decimals` digits after the point (0 to 12), grouped by thousands: "1,234,567.8". */
char *numfmt_fixed(double v, int decimals, char *buf, size_t size);

/* v to `sig` significant digits (1 to 15) in fixed notation, grouped, trailing zeros after the point
 * dropped: 0.000123456 to 3 -> "0.000123", 2.1203e7 to 3 -> "21,200,000", 12.5 to 6 -> "12.5". Digits
 * after the point are at most 12 (smaller values print as 0). */
char *numfmt_sig(double v, int sig, char *buf, size_t size);

/* USD: "$1,234,567" (whole dollars) or "$1,234.56" (cents); negative "-$12". */
char *numfmt_money(double usd, bool cents, char *buf, size_t size);

/* A fraction as a percentage: with half (the interval's half-width, a fraction; NaN or <= 0 for none) to the
 * decimal place of the half-width's first significant digit (the digits the interval supports), else to
 * three significant digits: 0.0060111, half 0.0005 -> "0.60%"; 0.0060111 alone -> "0.601%"; 0 -> "0%". */
char *numfmt_percent(double rate, double half, char *buf, size_t size);

/* "MEAN ± HALF", both to the decimal place of the half-width's second significant digit (money: with "$");
 * without an interval (half NaN or 0) the mean alone, to six significant digits (money: whole dollars, or
 * cents below $1,000). */
char *numfmt_pm(double mean, double half, bool money, char *buf, size_t size);

#endif
