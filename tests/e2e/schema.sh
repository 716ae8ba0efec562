#!/usr/bin/env bash
# End-to-end: `gpucap schema` prints a valid JSON Schema (draft 2020-12) equal to the shipped
# scenarios/gpucap.schema.json, and `gpucap schema --markdown` the shipped key reference
# scenarios/REFERENCE.md; every example scenario (and tests/data/good) validates against it with a
# real validator (python3-jsonschema), and it rejects malformed scenarios that are schema-level errors,
# which `gpucap validate` rejects too, so the two agree.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
CHECK="$SRC/tests/e2e/schema_check.py"

"$GPUCAP" schema >schema.json; rc=$?
check "schema exits 0 ($rc)" test $rc -eq 0
check "schema is the shipped scenarios/gpucap.schema.json (regenerate: gpucap schema > scenarios/gpucap.schema.json)" \
	cmp -s schema.json "$SRC/scenarios/gpucap.schema.json"
"$GPUCAP" schema --markdown >reference.md; rc=$?
check "schema --markdown exits 0 ($rc)" test $rc -eq 0
check "schema --markdown is the shipped scenarios/REFERENCE.md (regenerate: gpucap schema --markdown > scenarios/REFERENCE.md)" \
	cmp -s reference.md "$SRC/scenarios/REFERENCE.md"
"$GPUCAP" schema --markdown extra >/dev/null 2>&1; rc=$?
check "schema --markdown with an argument exits 2 ($rc)" test $rc -eq 2
check "schema --help shows the editor comment" grep -qF '# yaml-language-server: $schema=' <<<"$("$GPUCAP" schema --help)"
"$GPUCAP" schema extra >/dev/null 2>&1; rc=$?
check "schema with an argument exits 2 ($rc)" test $rc -eq 2
check "--help lists schema" grep -q "^  schema " <<<"$("$GPUCAP" --help)"

# Every example carries the editor comment on its first line, and validates.
for f in "$SRC"/scenarios/*.yaml; do
	check "$(basename "$f"): first line is the schema comment" \
		test "$(head -n 1 "$f")" = '# yaml-language-server: $schema=gpucap.schema.json'
done
good=("$SRC"/scenarios/*.yaml)
[ -d "$SRC/tests/data/good" ] && good+=("$SRC"/tests/data/good/*.yaml)
check "good files validate against the schema" python3 "$CHECK" schema.json good "${good[@]}"
check "gpucap validate accepts the good files" "$GPUCAP" validate "${good[@]}"

# Schema-level errors, one or more per section: unknown keys, wrong types, out of range, a key of another
# variant. The schema and gpucap validate must both reject each.
bad="unknown_key_top unknown_key_nested unknown_key_fleet_entry copies_unknown_key string_for_number
float_for_int mapping_for_scalar negative_rate bad_duration bad_time bad_service_kind arrivals_unknown_kind
trace_rate_per_s cv_on_constant diurnal_hourly_23 zero_slots spot_discount_one upfront_on_demand
max_on_reserved unknown_option startup_bad_kind startup_on_reserved target_above_one unknown_policy
hpa_key_under_target_tracking step_key_under_target_tracking tt_datapoints_under_hpa
scale_from_zero_policy_none percentage_above_100 catalog_discount_one name_too_long jobs_unknown_key
jobs_use_on_savings_plan jobs_negative_work missing_slo jobs_slo_without_workload"
files=()
for b in $bad; do
	files+=("$SRC/tests/data/bad/$b.yaml")
	check "$b.yaml exists" test -f "${files[-1]}"
	"$GPUCAP" validate "${files[-1]}" >/dev/null 2>&1; rc=$?
	check "$b.yaml: gpucap validate rejects it ($rc)" test $rc -eq 2
done
check "the schema rejects every one of them" python3 "$CHECK" schema.json bad "${files[@]}"
check "at least 8 bad files (${#files[@]})" test ${#files[@]} -ge 8
finish
