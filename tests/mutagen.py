#!/usr/bin/env python3
"""Generate planted bugs (mutants) for tests/mutate.sh from the source itself.

Where tests/mutants.txt lists bugs written by hand, each against a documented rule, this writes the kind a
developer plants without meaning to, by operator and constant swaps at every place they apply:

  relational   <  <=  >  >=  ==  !=   each to its neighbour at the boundary (< to <=, <= to <, ...),
                                     == to != and back
  logical      && ||                 each to the other
  off by one   + 1, - 1              dropped (x + 1 -> x), and an integer literal n >= 2 -> n + 1
                                     (not an array's size, [n]: a buffer one larger changes nothing)
  increment    ++ --                 each to the other (not in a for loop's header: a loop running
                                     away is found by a timeout, not by a test)

Nothing is changed inside comments, string or character literals, preprocessor lines, assert(...) lines
(release builds compile them out) or _Static_assert lines. Each mutant is one line of mutate.sh's list,
"SUITES FILE SED-EXPRESSION", its expression addressed by line number (N s/OLD/NEW/, OLD matched at its
column), so the list must be generated from the tree it runs on (mutate.sh copies that tree).

SUITES comes from the module table below: each source folder (or file) is checked by the Check suites and
end-to-end tests that test it, joined by "+" (mutate.sh: the mutant is killed when any of them fails).

Usage:
  tests/mutagen.py [--seed N] [--per-file K] [--only REGEX] [--list-modules] [SOURCE_DIR]
  tests/mutagen.py --score LOG...  per-module scores (a Markdown table) from tests/mutate.sh's output
  tests/mutagen.py --ci HAND GEN --seed N   CI's sample (.ci/run): HAND of tests/mutants.txt's lines, then
                   GEN generated mutants of the files listed in tests/mutants-judged.txt
    --per-file K   at most K mutants per file, sampled with the seed (default: all)
    --per-module K then at most K per module (the table's third column), sampled the same way
    --seed N       the sample's seed (printed on the first line, a comment, so a run can be repeated)
    --only REGEX   only files whose path matches REGEX
Mutants whose (file, original line, mutated line) appear in tests/mutants-equivalent.txt are left out:
that list holds the mutants that cannot change any result, each with the reason.
"""
import argparse
import os
import random
import re
import sys

# Module table: path prefix -> the suites that test it, cheapest first (mutate.sh stops at the first that
# fails). The money-, time- and decision-computing modules of issue 38 are all here. A model's or the
# engine's mutant that its own suites miss goes last to e2e_golden (5 s: the digests of 24 shipped runs),
# as a developer's planted bug would meet the whole suite in CI; --score counts those apart ("by golden").
MODULES = [
    ("models/pricing/option.c", "check_option+check_world+check_spot+e2e_golden", "options"),
    ("models/pricing/savings.c", "check_savings+check_commit+check_recommend+e2e_golden", "savings"),
    ("models/pricing/provider.c", "check_provider+check_provider_queue+check_spot+e2e_golden", "options"),
    ("models/capacity/option_block.c", "check_blocks+check_capacity+check_plan+e2e_golden", "options"),
    ("models/capacity/option_plan.c", "check_plan+check_blocks+e2e_golden", "options"),
    ("models/capacity/option_spot.c", "check_spot+check_jobs+check_capacity+check_provider_queue+check_provider+e2e_golden", "options"),
    ("models/capacity/option_table.c", "check_capacity+check_spot+check_blocks+check_world+check_provider+e2e_golden", "options"),
    ("models/capacity/option_dws.c", "check_provider_queue+check_capacity+check_spot+check_blocks+check_world+e2e_golden", "options"),
    ("models/capacity/option_", "check_capacity+check_spot+check_blocks+check_world+e2e_golden", "options"),
    ("models/capacity/reservation.c", "check_capacity+check_world_types+check_plan+check_jobs_reserved+e2e_golden", "fleet"),
    ("models/capacity/fleet_probe.c", "check_jobs_uniform+check_fleet+check_capacity+check_spot+check_world+e2e_golden", "fleet"),
    ("models/capacity/fleet_share.c", "check_jobs_reserved+check_fleet+check_capacity+check_spot+check_world+e2e_golden", "fleet"),
    ("models/capacity/fleet", "check_fleet+check_capacity+check_spot+check_world+check_jobs+check_jobs_reserved+check_plan+e2e_golden", "fleet"),
    ("models/jobs/jobs_teams", "check_jobs_teams+check_jobs+e2e_golden", "jobs"),
    ("models/jobs/jobs_policy_uniform", "check_jobs_uniform+check_jobs+e2e_golden", "jobs"),
    ("models/jobs/jobs_policy_reserved", "check_jobs_reserved+check_jobs+e2e_golden", "jobs"),
    ("models/jobs/jobs_optimal", "check_jobs_optimal+check_jobs_optimal_input+e2e_golden", "jobs"),
    ("models/jobs/", "check_jobs+check_jobs_reserved+check_plan+check_jobs_teams+check_jobs_uniform+validation_identities+e2e_golden", "jobs"),
    ("models/serving/routing.c", "check_routing+check_prefix+check_world+e2e_golden", "serving"),
    ("models/serving/prefcache.c", "check_prefcache+check_prefix+e2e_golden", "serving"),
    ("models/serving/mig.c", "check_mig+e2e_golden", "serving"),
    ("models/serving/mme.c", "check_mme+e2e_golden", "serving"),
    ("models/serving/multimodel.c", "check_mme+check_world_types+e2e_golden", "serving"),
    ("models/serving/copies.c", "check_world_copies+e2e_golden", "serving"),
    ("models/serving/serving_batch.c", "check_batching+e2e_golden", "serving"),
    ("models/serving/", "check_world+check_routing+check_batching+check_prefix+check_world_slo+check_world_copies+e2e_golden", "serving"),
    ("models/metering/hist.c", "check_hist+check_meter+e2e_golden", "meter"),
    ("models/metering/warn.c", "check_warn+check_world+e2e_golden", "meter"),
    ("models/metering/", "check_meter+check_world+check_world_slo+check_commit+check_world_types+e2e_golden", "meter"),
    ("analysis/focus.c", "e2e_focus", "FOCUS"),
    ("analysis/recommend", "check_recommend+check_recommend_term+e2e_recommend", "recommend"),
    ("analysis/rebill.c", "check_recommend+check_recommend_term", "recommend"),
    ("analysis/compare", "check_compare+e2e_compare", "compare"),
    ("analysis/report", "check_report", "report"),  # e2e_report takes minutes: too slow per mutant
    ("analysis/merge.c", "e2e_merge", "merge"),
    ("sim/evq.c", "check_evq+check_engine+e2e_golden", "engine"),
    ("sim/engine.c", "check_engine+check_world+e2e_golden", "engine"),
]

RELATIONAL = [("<=", "<"), (">=", ">"), ("==", "!="), ("!=", "=="), ("<", "<="), (">", ">=")]


def module_of(path):
    """(suites, module name) of a source file, or (None, None) when no module takes it."""
    for prefix, suites, module in MODULES:
        if path.startswith(prefix):
            return suites, module
    return None, None


def suites_of(path):
    return module_of(path)[0]


def score(logs):
    """Per-module mutation scores from tests/mutate.sh's output (one log or several): killed (and of those,
    killed by e2e_golden alone), survived, stillborn."""
    tally = {}
    for log in logs:
        for line in open(log, encoding="utf-8"):
            m = re.match(r"^(killed|SURVIVED|stillborn)\s+\S+\s+(\S+?):?\s", line)
            if not m:
                continue
            module = module_of(m.group(2))[1] or "other"
            t = tally.setdefault(module, {"killed": 0, "SURVIVED": 0, "stillborn": 0, "golden": 0})
            t[m.group(1)] += 1
            if m.group(1) == "killed" and re.search(r"' by e2e_golden\b", line):
                t["golden"] += 1
    print("| module | mutants run | killed | of which by e2e_golden alone | survived | score |")
    print("|---|---|---|---|---|---|")
    for module in sorted(tally):
        t = tally[module]
        n = t["killed"] + t["SURVIVED"]
        print("| %s | %d | %d | %d | %d | %s |" % (module, n, t["killed"], t["golden"], t["SURVIVED"],
                                                 "%.0f%%" % (100.0 * t["killed"] / n) if n else "-"))


def code_spans(line, in_comment):
    """The parts of a line that are code: (start, end) spans outside comments and literals; and whether a
    block comment is still open at the end of the line."""
    spans, i, start, n = [], 0, None, len(line)
    while i < n:
        if in_comment:
            j = line.find("*/", i)
            if j < 0:
                return spans, True
            i, in_comment = j + 2, False
            continue
        if start is None:
            start = i
        c = line[i]
        if line.startswith("/*", i) or line.startswith("//", i) or c in "\"'":
            if i > start:
                spans.append((start, i))
            start = None
            if line.startswith("//", i):
                return spans, False
            if line.startswith("/*", i):
                in_comment, i = True, i + 2
                continue
            q, i = c, i + 1  # a literal: skip to its closing quote
            while i < n and line[i] != q:
                i += 2 if line[i] == "\\" else 1
            i += 1
            continue
        i += 1
    if start is not None and start < n:
        spans.append((start, n))
    return spans, in_comment


def candidates(line, spans):
    """(column, old, new) swaps that apply to the code of a line."""
    out = []
    for a, b in spans:
        seg = line[a:b]
        for m in re.finditer(r"<<=?|>>=?|->|<=|>=|==|!=|<|>", seg):
            tok = m.group()
            if tok in ("<<", ">>", "<<=", ">>=", "->"):
                continue
            new = dict(RELATIONAL)[tok]
            out.append((a + m.start(), tok, new))
        for m in re.finditer(r"&&|\|\|", seg):
            out.append((a + m.start(), m.group(), "||" if m.group() == "&&" else "&&"))
        if not re.search(r"\bfor\s*\(", line):  # a loop's step reversed only runs away (a timeout, not a test)
            for m in re.finditer(r"\+\+|--", seg):
                out.append((a + m.start(), m.group(), "--" if m.group() == "++" else "++"))
        for m in re.finditer(r" [+-] 1\b(?!\.)", seg):
            out.append((a + m.start(), m.group(), ""))
        for m in re.finditer(r"(?<![\w.\[])([2-9]|[1-9]\d+)(?![\w.\]])", seg):
            n = int(m.group())
            out.append((a + m.start(), m.group(), str(n + 1)))
    return out


def sed_pattern(s):
    """s as a sed basic regular expression that matches it literally."""
    return re.sub(r"([\\/.*\[\]^$])", r"\\\1", s)


def sed_replacement(s):
    """s as a sed replacement text."""
    return re.sub(r"([\\/&])", r"\\\1", s)


def mutants_of(src, path):
    """Every mutant of one file: (line number, original, mutated, sed expression)."""
    out, in_comment = [], False
    with open(os.path.join(src, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        spans, after = code_spans(line, in_comment)
        skip = in_comment and not spans
        in_comment = after
        text = line.strip()
        if skip or text.startswith("#") or re.search(r"\b(assert|_Static_assert|static_assert)\s*\(", line):
            continue
        for col, old, new in candidates(line, spans):
            mutated = line[:col] + new + line[col + len(old):]
            # OLD with the text before it on the line, so that sed replaces this occurrence and no other
            head = line[:col] + old
            expr = "%ds/^%s/%s/" % (no, sed_pattern(head), sed_replacement(line[:col] + new))
            out.append((no, line, mutated, expr))
    return out


def load_equivalent(src):
    """tests/mutants-equivalent.txt: FILE, then the original line and the mutated one, each on a line of
    its own after "- " and "+ ", then "why: ..."; blocks apart by blank lines."""
    eq, path = set(), os.path.join(src, "tests", "mutants-equivalent.txt")
    if not os.path.exists(path):
        return eq
    block = []
    with open(path, encoding="utf-8") as f:
        for raw in f.read().split("\n") + [""]:
            if raw.startswith("#"):
                continue
            if raw.strip() == "":
                if block:
                    file = block[0].strip()
                    old = next((b[2:] for b in block if b.startswith("- ")), None)
                    new = next((b[2:] for b in block if b.startswith("+ ")), None)
                    why = next((b for b in block if b.startswith("why: ")), None)
                    if sum(b.startswith("why: ") for b in block) > 1:
                        sys.exit("mutants-equivalent.txt: two blocks run together (a blank line between them): "
                                 + block[0])
                    if old is None or new is None or why is None:
                        sys.exit("mutants-equivalent.txt: a block needs FILE, '- ' line, '+ ' line and 'why: '")
                    eq.add((file, old, new))
                block = []
            else:
                block.append(raw)
    return eq


def source_files(src, only):
    files = []
    for top in ("sim", "models", "analysis"):
        for dirpath, _, names in os.walk(os.path.join(src, top)):
            for name in names:
                if name.endswith(".c"):
                    rel = os.path.relpath(os.path.join(dirpath, name), src)
                    if "/cli/" in rel or not suites_of(rel):
                        continue
                    if only and not re.search(only, rel):
                        continue
                    files.append(rel)
    return sorted(files)


def judged_files(src):
    """tests/mutants-judged.txt: the files every generated mutant of which has been run and either killed or
    listed in mutants-equivalent.txt, so that a survivor of theirs in CI is news (a test weakened, or a line
    changed and its new mutant not judged)."""
    files = []
    path = os.path.join(src, "tests", "mutants-judged.txt")
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            name = raw.split("#", 1)[0].strip()
            if not name:
                continue
            if not os.path.exists(os.path.join(src, name)) or not suites_of(name):
                sys.exit("%s:%d: %s is not a source file in the module table" % (path, no, name))
            files.append(name)
    return files


def ci_sample(src, eq, rng, seed, hand, gen):
    """What CI runs: a sample of the hand-written list, then of the judged files' generated mutants."""
    lines = []
    with open(os.path.join(src, "tests", "mutants.txt"), encoding="utf-8") as f:
        for raw in f:
            if raw.strip() and not raw.startswith("#"):
                lines.append(raw.rstrip("\n"))
    ms, judged = [], judged_files(src)
    for path in judged:
        ms.extend((path,) + m for m in mutants_of(src, path) if (path, m[1], m[2]) not in eq)
    pick = sorted(rng.sample(range(len(lines)), min(hand, len(lines))))
    print("# CI's sample, seed %d: %d of the %d hand-written mutants, then %d of the %d generated from %d judged "
          "files" % (seed, len(pick), len(lines), min(gen, len(ms)), len(ms), len(judged)))
    for i in pick:
        print(lines[i])
    print("# generated by tests/mutagen.py --ci %d %d --seed %d" % (hand, gen, seed))
    for path, no, _, _, expr in sorted(rng.sample(ms, min(gen, len(ms)))):
        print("%s %s %s" % (suites_of(path), path, expr))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-file", type=int, default=0)
    ap.add_argument("--per-module", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--list-modules", action="store_true")
    ap.add_argument("--score", metavar="LOG", nargs="+", help="print per-module scores from tests/mutate.sh's output")
    ap.add_argument("--ci", metavar=("HAND", "GEN"), nargs=2, type=int,
                    help="CI's sample: HAND lines of tests/mutants.txt, then GEN generated mutants of the files "
                         "in tests/mutants-judged.txt")
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    if a.score:
        score(a.score)
        return
    if a.list_modules:
        for prefix, suites, module in MODULES:
            print(module, prefix, suites)
        return
    eq = load_equivalent(src)
    rng = random.Random(a.seed)
    if a.ci:
        ci_sample(src, eq, rng, a.seed, *a.ci)
        return
    print("# generated by tests/mutagen.py --seed %d --per-file %d --per-module %d%s" %
          (a.seed, a.per_file, a.per_module, " --only '%s'" % a.only if a.only else ""))
    by_module = {}
    for path in source_files(src, a.only):
        ms = [(path,) + m for m in mutants_of(src, path) if (path, m[1], m[2]) not in eq]
        if a.per_file and len(ms) > a.per_file:
            ms = sorted(rng.sample(ms, a.per_file))
        by_module.setdefault(module_of(path)[1], []).extend(ms)
    for module in sorted(by_module):
        ms = by_module[module]
        if a.per_module and len(ms) > a.per_module:
            ms = sorted(rng.sample(ms, a.per_module))
        for path, no, _, _, expr in ms:
            print("%s %s %s" % (suites_of(path), path, expr))


if __name__ == "__main__":
    main()
