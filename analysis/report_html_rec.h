/*
 * report_html_rec: the recommend parts of the report's page, from a search's stored result (report_rec.h);
 * report_html.c places them. Both write HTML to out; every text from the database is escaped.
 */
#ifndef GPUCAP_REPORT_HTML_REC_H
#define GPUCAP_REPORT_HTML_REC_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* Page one's decision for session ss (ss->rec.ok): a table of what to buy, the term, the cost against
 * on-demand only, the savings, the SLO and the risk, the regret, what is owed after the term, the
 * candidates ruled out and how the term was priced. */
void report_rec_decision(FILE *out, const struct report_session *ss);

/* The commitment-versus-cost curve of every candidate of ss (ss->rec.ok), as chart id: the choice highlighted,
 * the candidates that break the SLO as red crosses. */
void report_rec_curve(FILE *out, const char *id, const struct report_session *ss);

/* Every candidate of ss (ss->rec.ok): plan, term cost mean and p90, violation rates, whether it keeps the SLO
 * and, when not, why (report_rec_why); the choice starred. */
void report_rec_table(FILE *out, const struct report_session *ss);

/* Why candidate c is ruled out, for people ("" when it keeps the SLO): not a valid scenario, the SLO
 * unreachable from service time, the fleet at its maximum, or the replications that broke it. */
const char *report_rec_why(const struct report_rec *rec, const struct report_cand *c, char *buf, size_t size);

#endif
