#!/usr/bin/env python3
"""Rewrite `README, "X"` section citations to the file that now holds heading X (issue 30's split).

Usage: rewrite_citations.py [SOURCE_TREE]. Rewrites in place every file under sim, models, analysis,
tests, scenarios and .ci (and the top CMakeLists.txt); a title no manual has is printed and left alone.
Re-runnable: a citation already naming a file is not touched. Titles that were never headings map to the
heading that holds their text (RENAMED).
"""
import os, re, sys
SRC = sys.argv[1] if len(sys.argv) > 1 else "."
MANUALS = ["README.md", "models/README.md", "analysis/README.md", "scenarios/README.md", "tests/README.md"]
RENAMED = {"Copies": ("models/README.md", "Autoscaling: model copies"),
           "Fleet": ("models/README.md", "Purchase options"),
           "Output files": ("sim/gpucap.1", "OUTPUT FILES")}
home = {}
for m in MANUALS:
    fence = False
    for line in open(os.path.join(SRC, m), encoding="utf-8"):
        if line.startswith("```"): fence = not fence
        elif not fence and re.match(r"#+ ", line):
            home.setdefault(line.split(" ", 1)[1].strip(), m)
# README, optionally .md and a comma, then the quoted title (it may wrap over a comment line)
CITE = re.compile(r'(?<!["\w/.-])README(?:\.md)?(,?\s*\(?\s*")([^"]{1,80})"')
def fix(m):
    title = " ".join(re.sub(r"\n\s*(?:\*|#|//)?\s*", " ", m.group(2)).split())
    if title in RENAMED:
        f, t = RENAMED[title]
        return '%s%s%s"' % (f, m.group(1), t) if "\n" not in m.group(2) else m.group(0).replace("README", f, 1)
    if title not in home:
        print("left alone: README, \"%s\"" % title, file=sys.stderr)
        return m.group(0)
    return home[title] + m.group(0)[m.group(0).index(m.group(1)):] if not m.group(0).startswith("README.md") \
        else home[title] + m.group(0)[len("README.md"):]
for top in ("sim", "models", "analysis", "tests", "scenarios", ".ci", "CMakeLists.txt"):
    paths = [os.path.join(SRC, top)] if top.endswith(".txt") else \
        [os.path.join(r, n) for r, _, ns in os.walk(os.path.join(SRC, top)) for n in ns]
    for p in paths:
        if "/fuzz/corpus" in p or "/fuzz/crashes" in p or "/golden" in p or p.endswith(".sqlite") \
                or os.path.basename(p) in ("README.md", "rewrite_citations.py", "structure.py"):
            continue
        try: s = open(p, encoding="utf-8").read()
        except (UnicodeDecodeError, IsADirectoryError): continue
        t = CITE.sub(fix, s)
        if t != s: open(p, "w", encoding="utf-8").write(t)
