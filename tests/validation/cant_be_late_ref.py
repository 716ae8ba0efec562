#!/usr/bin/env python3
"""cant_be_late_ref: an independent tick simulator of the "Can't Be Late" model (Wu et al., NSDI 2024,
models/SOURCES.md [cant-be-late]), written from the paper's rules to check gpucap's jobs policies against
(tests/validation/spot_policies.sh). Python 3 standard library only.

The model (paper section 3.1):
  - One job of compute C0 (hours), deadline R0 (hours after its start), run on a cluster of N instances that
    is idle, on Spot or on On-Demand. Time moves in ticks of the trace's gap G; the job starts at a tick.
  - At tick i the policy sees has_spot = (count[i] >= N) and the current cluster; a Spot cluster is preempted
    at tick i when not has_spot (it is idle from then). The policy then names the cluster for the tick.
  - Every start (from idle, from the other type, or after a preemption) owes the changeover delay d: time
    that is paid for and makes no progress. The delay may span ticks; it is lost (owed again in full on the
    next start) if the cluster is given up before it is over. Progress is kept at a preemption.
  - Progress in a tick = G less the delay still owed. Cost of a tick used = N x the type's price x G, except
    that billing stops when the progress reaches C0 mid-tick (pro rata: the default here, as gpucap bills
    per second; --whole-ticks bills the last tick in full).
  - Hours reported are the cluster's running hours (changeover included); the "compute" hours exclude it
    (the paper's Table 3 counts compute only). Past the trace's end there is no Spot.
  With t the time since the start, R = R0 - t the time left, C = C0 - cp the compute left (cp the progress):
  - greedy (section 3.4): on On-Demand: stay (it only goes there for good); on Spot and not preempted: stay;
    idle: R < C + 2d -> On-Demand to the end (the safety net), else Spot if available, else idle. The safety
    net is checked before Spot: a Spot start with R - C < 2d could leave less than d for the On-Demand
    restart after a preemption during or right after its own changeover.
  - uniform_progress (section 5.2), ep(t) = C0 x t / R0 the expected progress; in order: idle and
    R < C + 2d -> On-Demand to the end, for good; on Spot and available -> stay; on On-Demand -> stay until
    cp >= ep(t + 2d), then Spot if available, else stay (it leaves On-Demand only for Spot); idle -> Spot if
    available ("taking risks"), else On-Demand if cp < ep(t), else idle.
  - on_demand: On-Demand from the start.
Times are kept as integer milliseconds, so the rules' comparisons are exact.

Usage: cant_be_late_ref.py --trace FILE (--start-ticks 0,37,... | --num-starts K) [--compute-h 48]
  [--deadline-h 60] [--overhead-h 0.2] [--instances 1] [--spot-price 1] [--od-price 3.06/0.918]
  [--policy greedy|uniform_progress|on_demand] [--json] [--print-starts];  cant_be_late_ref.py --self-test
--num-starts K takes K start ticks evenly spaced over [0, ticks - window), window = ceil(R0 / G) ticks:
start k = floor(k x (ticks - window) / K); --print-starts prints them (comma-separated) and exits.
"""
import argparse
import json
import math
import sys
from fractions import Fraction

MS_PER_H = 3600000
IDLE, SPOT, OD = "idle", "spot", "od"
POLICIES = ("greedy", "uniform_progress", "on_demand")


def ms(hours):
    """Hours (a number or a decimal string) as integer milliseconds, rounded to the nearest."""
    return int(round(Fraction(str(hours)) * MS_PER_H))


class Job:
    def __init__(self, compute_h, deadline_h, overhead_h, gap_s, instances=1, spot_price=1.0, od_price=3.06 / 0.918):
        self.C0, self.R0, self.d = ms(compute_h), ms(deadline_h), ms(overhead_h)
        self.G = int(round(Fraction(str(gap_s)) * 1000))
        self.N = instances
        self.price = {SPOT: float(spot_price), OD: float(od_price)}
        if self.G <= 0 or self.C0 <= 0 or self.R0 <= 0 or self.d < 0 or self.N < 1:
            raise ValueError("gap, compute and deadline must be > 0, overhead >= 0, instances >= 1")


class State:
    """What a policy sees at a tick: t and cp (ms), the cluster now (after any preemption), has_spot."""

    def __init__(self):
        self.t = 0
        self.cp = 0
        self.cur = IDLE
        self.has_spot = False
        self.od_forever = False


def greedy(job, s):
    if s.cur == OD:
        return OD
    if s.cur == SPOT and s.has_spot:
        return SPOT
    if (job.R0 - s.t) < (job.C0 - s.cp) + 2 * job.d:
        return OD
    return SPOT if s.has_spot else IDLE


def uniform_progress(job, s):
    # cp >= ep(t) is cp x R0 >= C0 x t (integers: exact)
    def behind(t):
        return s.cp * job.R0 < job.C0 * t

    if s.od_forever:
        return OD
    if s.cur == IDLE and (job.R0 - s.t) < (job.C0 - s.cp) + 2 * job.d:
        s.od_forever = True
        return OD
    if s.cur == SPOT and s.has_spot:
        return SPOT
    if s.cur == OD:
        if behind(s.t + 2 * job.d):
            return OD
        return SPOT if s.has_spot else OD
    if s.has_spot:
        return SPOT
    return OD if behind(s.t) else IDLE


def on_demand(job, s):
    return OD


POLICY = {"greedy": greedy, "uniform_progress": uniform_progress, "on_demand": on_demand}


def simulate(job, counts, start, policy, pro_rata=True, max_ticks=None):
    """Runs one job from tick `start` of `counts` to its end. Returns a dict of results and the decisions."""
    choose = POLICY[policy]
    s = State()
    owed = 0
    run_ms = {SPOT: 0, OD: 0}
    work_ms = {SPOT: 0, OD: 0}
    cost = 0.0
    decisions = []
    end = None
    limit = max_ticks if max_ticks is not None else 4 * (-(-(job.R0 + job.C0 + job.d) // job.G)) + 10
    i = start
    while end is None:
        if i - start >= limit:
            break  # never ends (no policy here can do that; a guard)
        s.has_spot = i < len(counts) and counts[i] >= job.N
        if s.cur == SPOT and not s.has_spot:
            s.cur = IDLE  # preempted at this tick
        nxt = choose(job, s)
        if nxt != s.cur:
            owed = job.d if nxt != IDLE else 0
        s.cur = nxt
        decisions.append(nxt)
        if nxt != IDLE:
            over = min(owed, job.G)
            owed -= over
            prog = job.G - over
            used = job.G
            if s.cp + prog >= job.C0:
                prog = job.C0 - s.cp
                end = s.t + over + prog
                if pro_rata:
                    used = over + prog
            s.cp += prog
            run_ms[nxt] += used
            work_ms[nxt] += prog
            cost += job.N * job.price[nxt] * used / MS_PER_H
        s.t += job.G
        i += 1
    h = 1.0 / MS_PER_H
    return {
        "start_tick": start,
        "cost": cost,
        "spot_h": run_ms[SPOT] * h,
        "od_h": run_ms[OD] * h,
        "spot_compute_h": work_ms[SPOT] * h,
        "od_compute_h": work_ms[OD] * h,
        "end_h": end * h if end is not None else None,
        "finished": end is not None,
        "met_deadline": end is not None and end <= job.R0,
    }, decisions


def read_trace(path):
    with open(path) as f:
        doc = json.load(f)
    gap = doc["metadata"]["gap_seconds"]
    counts = doc["data"]
    if not isinstance(counts, list) or not counts or not (isinstance(gap, (int, float)) and gap > 0):
        raise ValueError(f"{path}: not a SkyPilot availability trace (metadata.gap_seconds, data)")
    return gap, counts


def even_starts(nticks, job, k):
    window = -(-job.R0 // job.G)
    span = nticks - window
    if span <= 0 or k <= 0:
        raise ValueError(f"the trace has {nticks} ticks, fewer than the deadline's window of {window}")
    return sorted(set(k_ * span // k for k_ in range(k)))


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def summary(rows):
    return {
        "runs": len(rows),
        "cost": mean([r["cost"] for r in rows]),
        "spot_h": mean([r["spot_h"] for r in rows]),
        "od_h": mean([r["od_h"] for r in rows]),
        "spot_compute_h": mean([r["spot_compute_h"] for r in rows]),
        "od_compute_h": mean([r["od_compute_h"] for r in rows]),
        "missed": sum(1 for r in rows if not r["met_deadline"]),
    }


# ---- self-test: tiny traces whose decisions are worked out by hand (G = 1 h, d = 1 h unless said) ----
S, O, I = SPOT, OD, IDLE
CASES = [
    # name, policy, compute_h, deadline_h, overhead_h, trace (1 = Spot), expected decisions, spot_h, od_h,
    # end_h. Prices: Spot 1, On-Demand 3.
    # greedy, C=3 R=8: spot at 0 (overhead), 1 h of progress at 1; preempted at 2; idle while R >= C + 2d
    # (t=2: 6 >= 4, t=3: 5 >= 4, t=4: 4 >= 4); t=5: 3 < 4: On-Demand, overhead, then 2 h: ends at 8.
    ("greedy waits, safety net", "greedy", 3, 8, 1, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
     [S, S, I, I, I, O, O, O], 2, 3, 8),
    # greedy, C=4 R=12: as above to t=2 (cp=1); idle at t=2..5 (R - C = 9, 8, 7, 6 >= 2); Spot again at 6:
    # overhead, then 3 h: ends at 10, all on Spot.
    ("greedy back on spot", "greedy", 4, 12, 1, [1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
     [S, S, I, I, I, I, S, S, S, S], 6, 0, 10),
    # greedy, C=4 R=8: idle at t=0..2 (R - C = 4, 3, 2: not < 2); at t=3 R - C = 1 < 2: On-Demand although
    # Spot is back (the safety net comes first); overhead, 4 h: ends at 8, on the deadline.
    ("greedy safety net before spot", "greedy", 4, 8, 1, [0, 0, 0, 1, 1, 1, 1, 1, 1, 1],
     [I, I, I, O, O, O, O, O], 0, 5, 8),
    # uniform_progress, C=4 R=12 (ep(t) = t/3), same trace as "greedy back on spot": Spot at 0..1 (cp=1);
    # preempted at 2: cp=1 >= ep(2); t=3: cp=1 >= ep(3)=1: idle; t=4: 1 < 4/3: On-Demand (overhead);
    # t=5: cp=1 < ep(7)=7/3: stay (cp=2); t=6: 2 < ep(8)=8/3: stay although Spot is up (cp=3);
    # t=7: 3 >= ep(9)=3: to Spot (overhead); t=8: cp=4 at 9.
    ("up catches up then spot", "uniform_progress", 4, 12, 1, [1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
     [S, S, I, I, O, O, O, S, S], 4, 3, 9),
    # uniform_progress, C=3 R=8 (ep(t) = 3t/8): Spot at 0..1 (cp=1); t=2: 1 >= 0.75: idle; t=3: 1 < 1.125:
    # On-Demand (overhead); t=4: 1 < ep(6)=2.25: stay (cp=2); t=5: 2 < ep(7): stay, cp=3 at 6. No Spot, so it
    # never leaves On-Demand.
    ("up on demand when behind", "uniform_progress", 3, 8, 1, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
     [S, S, I, O, O, O], 2, 3, 6),
    # uniform_progress, C=2 R=10 (ep = t/5), no Spot at first: t=0: 0 < 0? no: idle; t=1: 0 < 0.2: On-Demand
    # (overhead); t=2: cp=0 < ep(4)=0.8: stay (cp=1); t=3: 1 >= ep(5)=1 but no Spot: stay (cp=2, ends at 4).
    ("up stays on demand without spot", "uniform_progress", 2, 10, 1, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
     [I, O, O, O], 0, 3, 4),
    # uniform_progress, C=4 R=7 (ep = 4t/7): t=0: R - C = 3 >= 2, Spot (overhead); preempted at 1 with cp=0
    # (R - C = 2: no safety net), no Spot: 0 < ep(1): On-Demand (overhead); Spot is back from 2 but cp stays
    # below ep(t + 2) (t=2: 0 < 16/7, 3: 1 < 20/7, 4: 2 < 24/7, 5: 3 < 4): On-Demand to the end at 6.
    ("up behind after a preemption", "uniform_progress", 4, 7, 1, [1, 0, 1, 1, 1, 1, 1, 1, 1, 1],
     [S, O, O, O, O, O], 1, 5, 6),
    # uniform_progress, C=4 R=6: t=0 idle (no Spot, cp = ep(0)); t=1: R - C = 1 < 2: the safety net comes
    # before taking Spot: On-Demand (overhead) at 1, 4 h: ends at 6, on the deadline. (Once on On-Demand for good
    # it could only leave when cp >= ep(t + 2d), which needs t + 2d > R0: never, so that rule is not seen.)
    ("up safety net before spot", "uniform_progress", 4, 6, 1, [0, 1, 1, 1, 1, 1, 1, 1, 1, 1],
     [I, O, O, O, O, O], 0, 5, 6),
    # on_demand, C=2.5: overhead at 0, cp=1, 2 at ticks 1, 2, then half a tick: ends at 3.5, 3.5 h paid.
    ("on demand pro rata", "on_demand", 2.5, 10, 1, [0] * 10, [O, O, O, O], 0, 3.5, 3.5),
    # on_demand, d = 1.5 h spans two ticks: t=0 overhead 1, t=1 overhead 0.5 + 0.5 h, t=2 cp=1.5, t=3 half
    # a tick: ends at 3.5.
    ("overhead spans ticks", "on_demand", 2, 10, 1.5, [0] * 10, [O, O, O, O], 0, 3.5, 3.5),
    # greedy, d = 1.5 h: Spot at 0 (overhead 1), preempted at 1 before its overhead is over: the 0.5 h left
    # is lost; back on Spot at 2, the full 1.5 h again (t=2 and half of t=3), then 0.5 + 1 + 0.5: C=2 ends
    # at 5.5 (pro rata). R - C stays >= 3 = 2d while idle (t=1: R=9, C=2).
    ("greedy overhead lost at preemption", "greedy", 2, 10, 1.5, [1, 0, 1, 1, 1, 1, 1, 1, 1, 1],
     [S, I, S, S, S, S], 4.5, 0, 5.5),
]


def self_test():
    failures = 0
    for name, pol, c, r, d, trace, want, spot_h, od_h, end_h in CASES:
        job = Job(c, r, d, 3600, 1, 1.0, 3.0)
        res, got = simulate(job, trace, 0, pol)
        want_cost = spot_h * 1 + od_h * 3
        ok = (got == want and abs(res["spot_h"] - spot_h) < 1e-9 and abs(res["od_h"] - od_h) < 1e-9
              and res["end_h"] is not None and abs(res["end_h"] - end_h) < 1e-9
              and abs(res["cost"] - want_cost) < 1e-9 and res["met_deadline"]
              and abs(res["spot_compute_h"] + res["od_compute_h"] - c) < 1e-9)
        print(("ok    " if ok else "FAIL  ") + name)
        if not ok:
            failures += 1
            print(f"      decisions {got}, expected {want}")
            print(f"      {res}; expected spot {spot_h} h, od {od_h} h, end {end_h} h, cost {want_cost}")
    # instances: N = 2 needs a count of 2; 1 is no Spot (greedy then waits, as on an empty trace)
    job = Job(2, 10, 1, 3600, 2, 1.0, 3.0)
    a, da = simulate(job, [1] * 10, 0, "greedy")
    b, db = simulate(job, [2] * 10, 0, "greedy")
    ok = da[0] == IDLE and db == [S, S, S] and abs(b["cost"] - 2 * 3.0) < 1e-9 and a["met_deadline"]
    print(("ok    " if ok else "FAIL  ") + "instances: count >= N, cost x N")
    failures += not ok
    # whole ticks: the last tick billed in full
    job = Job(2.5, 10, 1, 3600, 1, 1.0, 3.0)
    res, _ = simulate(job, [0] * 10, 0, "on_demand", pro_rata=False)
    ok = abs(res["od_h"] - 4) < 1e-9 and abs(res["end_h"] - 3.5) < 1e-9
    print(("ok    " if ok else "FAIL  ") + "whole ticks")
    failures += not ok
    # start ticks: evenly spaced over [0, ticks - window)
    job = Job(1, 2, 0, 3600)
    ok = even_starts(10, job, 4) == [0, 2, 4, 6] and even_starts(5, job, 6) == [0, 1, 2]
    print(("ok    " if ok else "FAIL  ") + "even start ticks")
    failures += not ok
    print(f"{failures} failure(s)" if failures else "all passed")
    return 1 if failures else 0


def main(argv):
    ap = argparse.ArgumentParser(description="Can't Be Late tick model: a reference for gpucap's jobs policies")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--trace")
    ap.add_argument("--start-ticks", help="comma-separated start ticks")
    ap.add_argument("--num-starts", type=int, help="K start ticks evenly spaced over [0, ticks - window)")
    ap.add_argument("--print-starts", action="store_true", help="print the start ticks and exit")
    ap.add_argument("--compute-h", default="48")
    ap.add_argument("--deadline-h", default="60")
    ap.add_argument("--overhead-h", default="0.2")
    ap.add_argument("--instances", type=int, default=1)
    ap.add_argument("--spot-price", type=float, default=1.0)
    ap.add_argument("--od-price", type=float, default=3.06 / 0.918)
    ap.add_argument("--policy", choices=POLICIES, default="greedy")
    ap.add_argument("--whole-ticks", action="store_true", help="bill the last tick in full (default: pro rata)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    if not a.trace:
        ap.error("--trace is required (or --self-test)")
    try:
        gap, counts = read_trace(a.trace)
        job = Job(a.compute_h, a.deadline_h, a.overhead_h, gap, a.instances, a.spot_price, a.od_price)
        if a.start_ticks:
            starts = [int(x) for x in a.start_ticks.split(",") if x.strip()]
        elif a.num_starts:
            starts = even_starts(len(counts), job, a.num_starts)
        else:
            ap.error("--start-ticks or --num-starts is required")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"cant_be_late_ref: {e}", file=sys.stderr)
        return 2
    if a.print_starts:
        print(",".join(str(x) for x in starts))
        return 0
    if any(x < 0 or x >= len(counts) for x in starts):
        print(f"cant_be_late_ref: a start tick outside the trace's {len(counts)} ticks", file=sys.stderr)
        return 2
    rows = [simulate(job, counts, st, a.policy, pro_rata=not a.whole_ticks)[0] for st in starts]
    if a.json:
        json.dump({"trace": a.trace, "gap_s": gap, "policy": a.policy, "runs": rows, "mean": summary(rows)},
                  sys.stdout)
        print()
        return 0
    print(f"{'start':>6} {'cost':>10} {'spot_h':>8} {'od_h':>8} {'end_h':>8} on_time")
    for r in rows:
        end = f"{r['end_h']:8.3f}" if r["end_h"] is not None else "       -"
        print(f"{r['start_tick']:6d} {r['cost']:10.4f} {r['spot_h']:8.3f} {r['od_h']:8.3f} {end} "
              f"{'yes' if r['met_deadline'] else 'NO'}")
    m = summary(rows)
    print(f"mean over {m['runs']}: cost {m['cost']:.4f}, spot {m['spot_h']:.3f} h ({m['spot_compute_h']:.3f} "
          f"compute), od {m['od_h']:.3f} h ({m['od_compute_h']:.3f} compute), {m['missed']} missed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
