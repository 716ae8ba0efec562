#!/usr/bin/env bash
# End-to-end: a scenario priced from vendors' price lists (tests/data/prices/, worked by hand in
# tests/check_pricelist.c). `gpucap catalog --prices` lists a file's rows, `--scenario` what a scenario's
# types and reserved entries get; `gpucap run` bills at the file's
# prices and its summary, and `gpucap report`'s page, say where they came from; a bad file or format on the
# command line is refused with exit 2 and the file's position.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
P=$SRC/tests/data/prices

out=$("$GPUCAP" catalog --prices "$P/aws-p5-g6.json" --format aws_price_list --region eu-west-1); rc=$?
check "catalog --prices exits 0 (got $rc)" test $rc -eq 0
# p5 1y partial upfront standard: 19 + 175200 / 8760 = 39 an hour
check "catalog --prices shows the 1y partial offer with its effective rate ($out)" \
	grep -qE '^p5\.48xlarge +reserved +1y partial_upfront standard +19 +175200 +39 ' <<<"$out"
check "catalog --prices: 26 rows and the header" test "$(grep -c -v '^#' <<<"$out")" -eq 27
json=$("$GPUCAP" catalog --prices "$P/aws-blocks.json" --format aws_capacity_blocks --region eu-west-1 --json)
check "catalog --prices --json: p4d block at 470 / 23.5 = 20" grep -qF '"type": "p4d.24xlarge", "kind": "capacity_block", "term_years": 0, "payment": null, "convertible": false, "usd_per_h": 20,' <<<"$json"
err=$("$GPUCAP" catalog --prices "$P/bad/blocks-bad-fee.json" --format aws_capacity_blocks 2>&1); rc=$?
check "catalog --prices on a bad file exits 2 (got $rc)" test $rc -eq 2
check "... with its position and path ($err)" grep -qF "blocks-bad-fee.json:8:28: CapacityBlockOfferings[0].UpfrontFee:" <<<"$err"
err=$("$GPUCAP" catalog --prices "$P/aws-blocks.json" --format gcp_skus 2>&1); rc=$?
check "catalog --prices with an unknown format exits 2 (got $rc: $err)" test $rc -eq 2

cat >priced.yaml <<YAML
name: priced
start: 2026-01-01T00:00:00Z
horizon: 10h
slo: {latency_s: 2}
workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}
serving: {instance_type: p5.48xlarge}
region: eu-west-1
prices: [{file: $P/aws-p5-g6.json, format: aws_price_list}]
fleet:
  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, scope: zonal}
  - {option: on_demand, count: 1, max: 1}
YAML
cat=$("$GPUCAP" catalog --scenario priced.yaml); rc=$?
check "catalog --scenario exits 0 (got $rc)" test $rc -eq 0
check "catalog --scenario: the file's On-Demand price ($cat)" grep -qE '^p5\.48xlarge +60$' <<<"$cat"
check "catalog --scenario: the entry's offer, effective 39" \
	grep -qF "fleet.0 reserved 1y partial_upfront: usd_per_h 19, upfront_usd 175200, effective 39 per hour" <<<"$cat"
check "catalog --scenario: the source line" grep -qF "source: priced.yaml:8:11: prices.0: p5.48xlarge is priced from" <<<"$cat"
sum=$("$GPUCAP" run priced.yaml --db p.sqlite 2>&1); rc=$?
check "run of the priced scenario exits 0 (got $rc)" test $rc -eq 0
# 1 x 39 x 10 h = 390 reserved; 1 x 60 x 10 h = 600 on demand
check "reserved billed at the offer: \$390.00 ($sum)" grep -qE 'reserved +\$390\.00' <<<"$sum"
check "on demand billed at the file's price: \$600.00" grep -qE 'on_demand +\$600\.00' <<<"$sum"
check "the summary says where the prices came from" \
	grep -qF "p5.48xlarge is priced from aws_price_list $P/aws-p5-g6.json (region eu-west-1, published 2026-11-27T10:00:00Z): On-Demand \$60 per instance-hour, reserved terms as listed" <<<"$sum"
"$GPUCAP" report --db p.sqlite 1 -o run.html >/dev/null 2>&1; rc=$?
check "report exits 0 (got $rc)" test $rc -eq 0
check "the report says where the prices came from" grep -qF "p5.48xlarge is priced from aws_price_list" run.html
check "a type priced from a file has no built-in prices line" bash -c '! grep -q "^  prices  " <<<"$1"' _ "$sum"
# The same scenario without its price list: the built-in catalogue's dated row, said where the bill is
# printed and in the report; with a catalog: override, the scenario's own rate (scenario_origin.c).
sed '/^prices:/d; /^region:/d' priced.yaml >builtin.yaml
sum=$("$GPUCAP" run builtin.yaml --db b.sqlite 2>&1); rc=$?
check "run of the built-in scenario exits 0 (got $rc)" test $rc -eq 0
check "the summary names the built-in catalogue's price and date ($sum)" \
	grep -qE '^  prices     p5\.48xlarge On-Demand \$55\.04/h: built-in catalogue, us-east-1, observed 20[0-9-]+ \(' <<<"$sum"
check "... and that commitments use typical discounts" grep -qF "use its typical discounts (assumptions)" <<<"$sum"
"$GPUCAP" report --db b.sqlite 1 -o builtin.html >/dev/null 2>&1
check "the report has the built-in catalogue's line" grep -qF "Prices: p5.48xlarge On-Demand \$55.04/h: built-in catalogue" builtin.html
sum=$("$GPUCAP" run builtin.yaml --db c.sqlite --set catalog.p5.48xlarge.usd_per_h=50 2>&1)
check "a catalog: override is the scenario's own rate ($sum)" \
	grep -qF "  prices     p5.48xlarge On-Demand \$50/h: as the scenario gives it" <<<"$sum"
finish
