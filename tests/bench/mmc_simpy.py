#!/usr/bin/python3
"""mmc_simpy: the M/M/c queue of tests/bench/mmc-95.yaml in SimPy 3, for tests/bench/mmc.sh.

usage: /usr/bin/python3 mmc_simpy.py LAMBDA MU C HORIZON_S [SEED]

The idiomatic SimPy model: a source process that sleeps an exponential gap and starts one process per
request; each request asks a Resource of capacity C for a slot (FIFO), holds it for an exponential service
time, and releases it. Arrivals stop at HORIZON_S and the requests in the system then run to completion,
as in gpucap and mmc_ref.

What counts as an event, to compare with mmc_ref (one arrival and one departure per request): SimPy
processes many more internal events per request (the timeouts, the slot request and release, process
start and end), so this counts the same two per request: events = arrivals + departures. It prints one
parseable line:
  mmc_simpy events=N arrivals=A served=S wait_mean_s=W
"""
import random
import sys

import simpy


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: mmc_simpy.py LAMBDA MU C HORIZON_S [SEED]")
    lam, mu, c, horizon = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) == 6 else 1)
    env = simpy.Environment()
    servers = simpy.Resource(env, capacity=c)
    count = {"arrivals": 0, "served": 0, "wait": 0.0}

    def request():
        t0 = env.now
        with servers.request() as slot:
            yield slot
            count["wait"] += env.now - t0
            yield env.timeout(rng.expovariate(mu))
        count["served"] += 1

    def source():
        while True:
            yield env.timeout(rng.expovariate(lam))
            if env.now >= horizon:
                return
            count["arrivals"] += 1
            env.process(request())

    env.process(source())
    env.run()
    served = count["served"]
    print("mmc_simpy events=%d arrivals=%d served=%d wait_mean_s=%.6f"
          % (count["arrivals"] + served, count["arrivals"], served, count["wait"] / served if served else 0.0))


if __name__ == "__main__":
    main()
