#!/usr/bin/env python3
"""Synthetic Spot availability traces in the SkyPilot spot-traces JSON format (not measured data).

    spot_availability_gen.py PROFILE [--seed N] [--days D] [--gap-s G] > trace.json

Each trace alternates spells of "available" (1 instance) and "unavailable" (0), with lognormal spell lengths
(heavy-tailed, as the SkyPilot AWS traces' spells are: most are short, a few last days) and, inside the
available spells, one-tick blips at a Poisson rate. Lengths are drawn in seconds and rounded to ticks (at
least one). Python's random (Mersenne Twister) with the given seed: the same arguments give the same file.

The profiles (mean spell lengths in hours; sigma of the log; blips per available hour) are assumptions,
chosen to span what the AWS traces of the Can't Be Late study show for single V100 instances (availability
from about half to nearly all of the time):
    steady  up 20 h (sigma 1.0), down 1.5 h (sigma 0.8), 0.02 blips/h  -> about 90% available
    choppy  up 4 h (sigma 1.2), down 1 h (sigma 1.0), 0.15 blips/h     -> about 75%, many short spells
    scarce  up 5 h (sigma 1.0), down 5 h (sigma 1.2), 0.05 blips/h     -> about half, long droughts
scenarios/traces/README.md lists the shipped files and the command that wrote each.
"""
import argparse
import json
import math
import random
import sys

PROFILES = {
    "steady": dict(up_h=20.0, up_sigma=1.0, down_h=1.5, down_sigma=0.8, blips_per_h=0.02),
    "choppy": dict(up_h=4.0, up_sigma=1.2, down_h=1.0, down_sigma=1.0, blips_per_h=0.15),
    "scarce": dict(up_h=5.0, up_sigma=1.0, down_h=5.0, down_sigma=1.2, blips_per_h=0.05),
}


def lognormal_ticks(rng, mean_h, sigma, gap_s):
    """A lognormal length with the given mean (hours) and sigma of the log, in whole ticks (>= 1)."""
    mu = math.log(mean_h * 3600.0) - sigma * sigma / 2
    return max(1, round(rng.lognormvariate(mu, sigma) / gap_s))


def generate(profile, seed, days, gap_s):
    p = PROFILES[profile]
    rng = random.Random(seed)
    n = int(days * 86400 // gap_s)
    data = []
    up = rng.random() < p["up_h"] / (p["up_h"] + p["down_h"])
    while len(data) < n:
        if up:
            spell = [1] * lognormal_ticks(rng, p["up_h"], p["up_sigma"], gap_s)
            blip_p = p["blips_per_h"] * gap_s / 3600.0
            spell = [0 if rng.random() < blip_p else 1 for _ in spell]
        else:
            spell = [0] * lognormal_ticks(rng, p["down_h"], p["down_sigma"], gap_s)
        data.extend(spell)
        up = not up
    return data[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", choices=sorted(PROFILES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--days", type=float, default=14)
    ap.add_argument("--gap-s", type=int, default=600)
    a = ap.parse_args()
    data = generate(a.profile, a.seed, a.days, a.gap_s)
    note = (f"SYNTHETIC (scenarios/traces/spot_availability_gen.py {a.profile} --seed {a.seed} --days {a.days:g} "
            f"--gap-s {a.gap_s}): not measured data; {100 * sum(data) / len(data):.1f}% of ticks available")
    json.dump({"metadata": {"gap_seconds": a.gap_s, "note": note}, "data": data}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
