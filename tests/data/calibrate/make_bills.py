#!/usr/bin/env python3
"""Write the calibrate test bills (tests/data/calibrate/week-cur.csv, week-focus.csv) from a known usage table.

The week 2026-11-02T00:00Z to 2026-11-09T00:00Z (168 UTC clock hours) of one account running p5.48xlarge
instances in us-east-1: every hour 4 On-Demand instances at $55.04/h and 1 Spot instance at $27.52/h, so the
billed side of `gpucap calibrate` is, in every hour, on_demand 4 instance-hours / $220.16, spot 1 / $27.52,
all classes 5 / $247.68 (tests/e2e/calibrate.sh works the errors out from these by hand).

How the rows carry that usage, as real bills do, to exercise the reader's rules (models/formats/billfile.h):
  - one row per instance and clock hour, except instance 4 on 2026-11-04, billed as one day-long row
    (24 h, $1320.96: the reader splits it, 1/24 to each hour), and instance 4 in the hours 10:00 and 11:00 of
    2026-11-05, billed as three rows [10:00, 10:30) 0.5 h, [10:30, 11:30) 1 h, [11:30, 12:00) 0.5 h;
  - rows the reader must leave out: a g5.xlarge instance (another type) all day on 2026-11-02, storage
    (no instance type), tax, a credit, and (CUR) a Savings Plan negation of p5 usage or (FOCUS) a purchase.
Run it from anywhere: python3 make_bills.py [OUTDIR] (default: this file's folder). Deterministic.
"""
import csv
import datetime as dt
import os
import sys

START = dt.datetime(2026, 11, 2, tzinfo=dt.timezone.utc)
HOURS = 168
OD, SPOT = 55.04, 27.52  # p5.48xlarge us-east-1, On-Demand and (gpucap's default) half of it for Spot
TYPE = "p5.48xlarge"
DAY_ROW = (4, 2)          # (instance, day index) billed as one day-long row
SPLIT = (4, 3, 10)        # (instance, day index, hour of day): hours h, h+1 billed as three rows


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def usage():
    """(start, end, kind, instance, hours, cost) of every p5 usage row, in time order."""
    rows = []
    day_start = START + dt.timedelta(days=DAY_ROW[1])
    rows.append((day_start, day_start + dt.timedelta(days=1), "od", DAY_ROW[0], 24.0, 24 * OD))
    s0 = START + dt.timedelta(days=SPLIT[1], hours=SPLIT[2])
    for a, b in ((0, 30), (30, 90), (90, 120)):
        h = (b - a) / 60
        rows.append((s0 + dt.timedelta(minutes=a), s0 + dt.timedelta(minutes=b), "od", SPLIT[0], h, h * OD))
    for h in range(HOURS):
        t = START + dt.timedelta(hours=h)
        day, hod = divmod(h, 24)
        for i in range(1, 5):
            if i == DAY_ROW[0] and day == DAY_ROW[1]:
                continue
            if i == SPLIT[0] and day == SPLIT[1] and hod in (SPLIT[2], SPLIT[2] + 1):
                continue
            rows.append((t, t + dt.timedelta(hours=1), "od", i, 1.0, OD))
        rows.append((t, t + dt.timedelta(hours=1), "spot", 5, 1.0, SPOT))
    rows.sort(key=lambda r: (r[0], r[3]))
    return rows


def check(rows):
    """The rows add up to the table above, hour by hour (the split rows and the day row included)."""
    od = [0.0] * HOURS
    for s, e, kind, _, h, _ in rows:
        if kind != "od":
            continue
        for k in range(HOURS):
            a = max(s, START + dt.timedelta(hours=k))
            b = min(e, START + dt.timedelta(hours=k + 1))
            if b > a:
                od[k] += h * (b - a) / (e - s)
    assert all(abs(x - 4) < 1e-9 for x in od), od


CUR_COLS = ["identity_line_item_id", "bill_payer_account_id", "line_item_line_item_type", "line_item_usage_start_date",
            "line_item_usage_end_date", "line_item_product_code", "line_item_usage_type", "line_item_resource_id",
            "line_item_usage_amount", "line_item_unblended_rate", "line_item_unblended_cost", "product_instance_type",
            "pricing_term", "savings_plan_savings_plan_effective_cost", "reservation_effective_cost"]


def write_cur(path, rows):
    t0, t1 = iso(START), iso(START + dt.timedelta(hours=HOURS))
    d1 = iso(START + dt.timedelta(days=1))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(CUR_COLS)
        n = 0
        for s, e, kind, i, h, cost in rows:
            n += 1
            spot = kind == "spot"
            w.writerow([f"li-{n:05d}", "111122223333", "Usage", iso(s), iso(e), "AmazonEC2",
                        f"USE1-{'SpotUsage' if spot else 'BoxUsage'}:{TYPE}", f"i-{i:04d}", f"{h:g}",
                        f"{SPOT if spot else OD}", f"{cost:.2f}", TYPE, "Spot" if spot else "OnDemand", "", ""])
        for h in range(24):  # another instance type
            s = START + dt.timedelta(hours=h)
            w.writerow([f"li-g5-{h:02d}", "111122223333", "Usage", iso(s), iso(s + dt.timedelta(hours=1)), "AmazonEC2",
                        "USE1-BoxUsage:g5.xlarge", "i-0g5", "1", "1.006", "1.006", "g5.xlarge", "OnDemand", "", ""])
        w.writerow(["li-ebs", "111122223333", "Usage", t0, t1, "AmazonEC2", "USE1-EBS:VolumeUsage.gp3", "vol-1",
                    "1000", "0.08", "80.00", "", "OnDemand", "", ""])
        w.writerow(["li-tax", "111122223333", "Tax", t0, t1, "AmazonEC2", "", "", "1", "", "3120.45", "", "", "", ""])
        w.writerow(["li-credit", "111122223333", "Credit", t0, d1, "AmazonEC2", f"USE1-BoxUsage:{TYPE}", "", "0", "",
                    "-500.00", TYPE, "", "", ""])
        w.writerow(["li-negation", "111122223333", "SavingsPlanNegation", t0, d1, "AmazonEC2",
                    f"USE1-BoxUsage:{TYPE}", "i-0009", "0", "", "-12.00", TYPE, "", "", ""])


FOCUS_COLS = ["BilledCost", "BillingCurrency", "ChargeCategory", "ChargeDescription", "ChargePeriodEnd",
              "ChargePeriodStart", "CommitmentDiscountStatus", "ConsumedQuantity", "ConsumedUnit", "EffectiveCost",
              "PricingCategory", "ProviderName", "RegionId", "ResourceId", "ServiceName", "SkuId", "x_UsageType"]


def write_focus(path, rows):
    t0, t1 = iso(START), iso(START + dt.timedelta(hours=HOURS))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(FOCUS_COLS)
        for s, e, kind, i, h, cost in rows:
            spot = kind == "spot"
            w.writerow([f"{cost:.2f}", "USD", "Usage", f"{TYPE} {'Spot' if spot else 'On-Demand'} usage", iso(e),
                        iso(s), "", f"{h:g}", "Hours", f"{cost:.2f}", "Dynamic" if spot else "Standard", "AWS",
                        "us-east-1", f"i-{i:04d}", "Amazon Elastic Compute Cloud",
                        "8KQ2Z3" if spot else "8KQ2Z2", f"USE1-{'SpotUsage' if spot else 'BoxUsage'}:{TYPE}"])
        for h in range(24):
            s = START + dt.timedelta(hours=h)
            w.writerow(["1.01", "USD", "Usage", "g5.xlarge usage", iso(s + dt.timedelta(hours=1)), iso(s), "", "1",
                        "Hours", "1.01", "Standard", "AWS", "us-east-1", "i-0g5", "Amazon Elastic Compute Cloud",
                        "G5XL", "USE1-BoxUsage:g5.xlarge"])
        w.writerow(["80.00", "USD", "Usage", "gp3 storage", t1, t0, "", "1000", "GB-Mo", "80.00", "Standard", "AWS",
                    "us-east-1", "vol-1", "Amazon Elastic Compute Cloud", "EBSGP3", "USE1-EBS:VolumeUsage.gp3"])
        w.writerow(["3120.45", "USD", "Tax", "sales tax", t1, t0, "", "", "", "0", "Standard", "AWS", "", "", "", "", ""])
        w.writerow(["-500.00", "USD", "Credit", "promotional credit", t1, t0, "", "", "", "-500.00", "Standard", "AWS",
                    "", "", "Amazon Elastic Compute Cloud", "", ""])
        w.writerow(["2000.00", "USD", "Purchase", f"{TYPE} support fee", t1, t0, "", "", "", "0", "Standard", "AWS",
                    "", "", "Amazon Elastic Compute Cloud", "8KQ2Z2", f"USE1-BoxUsage:{TYPE}"])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rows = usage()
    check(rows)
    write_cur(os.path.join(out, "week-cur.csv"), rows)
    write_focus(os.path.join(out, "week-focus.csv"), rows)


if __name__ == "__main__":
    main()
