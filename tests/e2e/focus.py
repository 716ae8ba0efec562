#!/usr/bin/env python3
"""Check a `gpucap export --focus` CSV (argv[1]) against tests/data/focus/columns.txt (argv[2]) and the run's
cost_<option>_usd metrics (argv[3]: lines "option cost"). Prints what fails; exit 1 on any failure.
The FOCUS 1.1 rules checked besides the column list: ConsumedQuantity is null on rows that are not Usage
and on unused commitment; purchases have EffectiveCost 0; CommitmentDiscountStatus only on Usage rows with a
commitment; ChargePeriodEnd > ChargePeriodStart, within the billing period; EffectiveCost sums, per option,
to cost_<option>_usd to the cent; Tags is a JSON object of strings with gpucap-use serving or jobs."""
import csv, json, re, sys

def load_columns(path):
    cols = []
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        name, typ = line.split(" ", 1)
        cols.append((name, typ.rstrip("?"), typ.endswith("?")))
    return cols

def ok(value, typ):
    if typ == "decimal":
        return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value) is not None
    if typ == "datetime":
        return re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", value) is not None
    if typ == "json":
        try:
            tags = json.loads(value)
        except ValueError:
            return False
        return (isinstance(tags, dict) and all(isinstance(v, str) for v in tags.values())
                and tags.get("gpucap-use") in ("serving", "jobs"))
    if typ == "text":
        return value != ""
    return value in typ.split("|")

def main():
    cols = load_columns(sys.argv[2])
    costs = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[3]) if l.strip()}
    errors = []
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if header != [c[0] for c in cols]:
        errors.append("header %s != columns.txt" % header)
    sums = {}
    for i, r in enumerate(body, 2):
        if len(r) != len(cols):
            errors.append("line %d: %d cells" % (i, len(r)))
            continue
        row = dict(zip(header, r))
        for name, typ, nullable in cols:
            v = row[name]
            if v == "" and nullable:
                continue
            if not ok(v, typ):
                errors.append("line %d: %s = %r is not %s" % (i, name, v, typ))
        usage = row["ChargeCategory"] == "Usage"
        unused = row["CommitmentDiscountStatus"] == "Unused"
        if (not usage or unused) and row["ConsumedQuantity"] != "":
            errors.append("line %d: ConsumedQuantity on a %s row" % (i, row["ChargeCategory"]))
        if usage and not unused and row["ConsumedQuantity"] == "":
            errors.append("line %d: a Usage row without ConsumedQuantity" % i)
        if row["ChargeCategory"] == "Purchase" and float(row["EffectiveCost"]) != 0:
            errors.append("line %d: a purchase with an EffectiveCost" % i)
        if row["CommitmentDiscountStatus"] and not (usage and row["CommitmentDiscountId"]):
            errors.append("line %d: CommitmentDiscountStatus without a commitment's usage" % i)
        if row["CommitmentDiscountId"] and not row["CommitmentDiscountCategory"]:
            errors.append("line %d: a commitment without its category" % i)
        if not (row["BillingPeriodStart"] <= row["ChargePeriodStart"] <= row["ChargePeriodEnd"]
                and row["ChargePeriodStart"] < row["BillingPeriodEnd"]):
            errors.append("line %d: charge period outside the billing period" % i)
        if row["ProviderName"] != "AWS" or row["ServiceName"] != "Amazon Elastic Compute Cloud":
            errors.append("line %d: provider or service" % i)
        opt = row["x_GpucapOption"]
        sums[opt] = sums.get(opt, 0.0) + float(row["EffectiveCost"])
    for opt, cost in costs.items():
        if abs(sums.get(opt, 0.0) - cost) >= 0.005:
            errors.append("%s: EffectiveCost sums to %.4f, cost_%s_usd is %.4f" % (opt, sums.get(opt, 0.0), opt, cost))
    for e in errors[:20]:
        print(e)
    sys.exit(1 if errors else 0)

main()
