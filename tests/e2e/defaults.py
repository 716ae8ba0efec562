#!/usr/bin/env python3
"""e2e_defaults: every default the key reference documents is the loader's.

For each key with a default in scenarios/REFERENCE.md (generated from the schema table's `.dflt` texts), find
a scenario among scenarios/ and tests/data/good/ where the key's mapping is present, in a variant that takes
the key, and the key itself is absent; load it as it is and with `--set KEY=DEFAULT` (the documented text,
literally), and require the two loaded scenarios to be equal, field by field (tests/defaults_load.c). A
default the loader does not have shows as a difference.

Usage: defaults.py SOURCE_TREE DEFAULTS_LOAD_BINARY. Prints every key with its verdict: `same` (checked),
`differs` (a wrong default: the test fails), `refused` (the loader refuses the override on every scenario
tried: the key needs another key or variant the scenarios lack, e.g. chunk_tokens needs prefill chunked),
`none` (no scenario has the key's mapping without it). A scenario whose two plain loads differ in bytes
(`unstable`: bytes the loader leaves uninitialised in what it owns) is skipped and named. Exit 1 on a
difference only; refused and none are reported, to be covered by better base scenarios.
"""
import os
import re
import subprocess
import sys

import yaml

SRC, HELPER = sys.argv[1], sys.argv[2]


# ---- the reference: (mapping path, key, default, selector, variants) -----------------------------------
entries = []
path = selector = None
for line in open(os.path.join(SRC, "scenarios/REFERENCE.md"), encoding="utf-8"):
    m = re.match(r"## `(.*)`$", line)
    if m:
        path, selector = m.group(1), None
        continue
    m = re.match(r"Which keys apply depends on `(\w+)`", line)
    if m:
        selector = m.group(1)
        continue
    if not line.startswith("| `"):
        continue
    cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
    key, dflt = cells[0].strip("`"), cells[3]
    if not dflt:
        continue
    variants = cells[5] if selector else "all"
    entries.append((path, key, dflt.strip("`"), selector,
                    None if variants == "all" else re.findall(r"`([^`]+)`", variants)))


# ---- where each mapping occurs in the scenarios ----------------------------------------------------------
def nodes(doc, mpath):
    """(concrete path, mapping) for every mapping at mpath ("(top level)", "fleet.*", "serving.copies")."""
    found = [("", doc)]
    if mpath != "(top level)":
        for seg in mpath.split("."):
            nxt = []
            for p, n in found:
                if seg == "*":
                    items = enumerate(n) if isinstance(n, list) else n.items() if isinstance(n, dict) else []
                    nxt += [("%s%s." % (p, i), v) for i, v in items]
                elif isinstance(n, dict) and seg in n:
                    nxt.append(("%s%s." % (p, seg), n[seg]))
                elif isinstance(n, list):  # a list of mappings named without its index
                    nxt += [("%s%d.%s." % (p, i, seg), v[seg]) for i, v in enumerate(n)
                            if isinstance(v, dict) and seg in v]
            found = nxt
    return [(p, n) for p, n in found if isinstance(n, dict)]


files = sorted(os.path.join(SRC, "scenarios", f) for f in os.listdir(os.path.join(SRC, "scenarios"))
               if f.endswith(".yaml"))
good = os.path.join(SRC, "tests/data/good")
if os.path.isdir(good):
    files += sorted(os.path.join(good, f) for f in os.listdir(good) if f.endswith(".yaml"))
docs = {}
for f in files:
    with open(f, encoding="utf-8") as fh:
        docs[f] = yaml.safe_load(fh)

def candidates(mpath, key, variants, selector):
    """(file, override, created) where the key can be set: its mapping present without it, in a variant
    that takes it; else (created) its mapping absent under a present parent, so that --set creates it."""
    out = []
    for f, doc in docs.items():
        for p, n in nodes(doc, mpath):
            if key not in n and (variants is None or str(n.get(selector, "")) in variants):
                out.append((f, "%s%s=%s" % (p, key, dflt), False))
    if not out and mpath != "(top level)" and not mpath.endswith("*") and variants is None:
        parent, _, last = mpath.rpartition(".")
        for f, doc in docs.items():
            for p, n in nodes(doc, parent or "(top level)"):
                if last not in n:
                    out.append((f, "%s%s.%s=%s" % (p, last, key, dflt), True))
    return out[:4]


cases = {}   # file -> [(label, override, created)]
missing = []
for mpath, key, dflt, selector, variants in entries:
    label = "%s.%s" % (mpath, key) if mpath != "(top level)" else key
    found = candidates(mpath, key, variants, selector)
    for f, override, created in found:
        cases.setdefault(f, []).append((label, override, created))
    if not found:
        missing.append(label)

fails = []
verdicts = {}  # label -> [(verdict, override, file, created, line)]
for f, todo in cases.items():
    out = subprocess.run([HELPER, f] + [o for _, o, _ in todo], capture_output=True, text=True).stdout.splitlines()
    rel = os.path.relpath(f, SRC)
    if len(out) < 2 or out[0] != "base ok":
        fails.append("%s: %s" % (rel, "; ".join(out[:2])))
        continue
    if out[1] != "base stable":
        print("skipped  %s: two plain loads differ in bytes" % rel)
        continue
    for (label, override, created), line in zip(todo, out[2:]):
        verdicts.setdefault(label, []).append((line.split()[0], override, rel, created, line))
counts = {"same": 0, "refused": 0, "differs": 0, "none": 0}
for mpath, key, dflt, selector, variants in entries:
    label = "%s.%s" % (mpath, key) if mpath != "(top level)" else key
    vs = verdicts.get(label, [])
    # a difference where the mapping was there all along is a wrong default; where --set had to create the
    # mapping, the new mapping itself may change the scenario (copies, multi_model): only "same" counts then
    wrong = [v for v in vs if v[0] == "differs" and not v[3]]
    ok = [v for v in vs if v[0] == "same"]
    verdict = "differs" if wrong else "same" if ok else "refused" if vs else "none"
    counts[verdict] += 1
    v = (wrong or ok or vs or [("", "", "", False, "")])[0]
    print("%-8s %-48s %s in %s%s" % (verdict, label, v[1], v[2], " (mapping created)" if v[3] else ""))
    if verdict == "differs":
        fails.append("%s: the documented default is not the loader's: %s in %s" % (label, v[1], v[2]))
    elif verdict == "refused":
        print("         %s" % vs[0][4])
for f in fails:
    print("FAIL: " + f)
print("defaults: %d documented, %d same, %d refused, %d differ, %d not exercised; %d failures" %
      (len(entries), counts["same"], counts["refused"], counts["differs"], counts["none"], len(fails)))
sys.exit(1 if fails else 0)
