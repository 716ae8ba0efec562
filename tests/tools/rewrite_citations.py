#!/usr/bin/env python3
"""Rewrite section citations of the old one-file README to the manual that now holds the heading.

Issue 30 split README.md into README.md, models/README.md, analysis/README.md, scenarios/README.md,
tests/README.md and the man page, keeping the section titles. A comment that cited `README, "Warnings"`
now cites `models/README.md, "Warnings"`. Usage: rewrite_citations.py [SOURCE_TREE]. Rewrites in place
every text file under sim, models, analysis, tests, scenarios and .ci and the top CMakeLists.txt; a title
no manual has is printed on stderr and left alone. Re-runnable: a citation that already names a folder's
file is not touched. A few titles that were never headings map to the heading that holds their text
(RENAMED). e2e_structure (tests/e2e/structure.py) checks the result.
"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else "."
MANUALS = ["README.md", "models/README.md", "analysis/README.md", "scenarios/README.md", "tests/README.md"]
RENAMED = {"Copies": ("models/README.md", "Autoscaling: model copies"),
           "Fleet": ("models/README.md", "Purchase options"),
           "Output files": ("sim/cli/gpucap.1", "OUTPUT FILES"),
           "What if traffic doubles": ("README.md", "A worked example")}
SKIP = ("tests/tools/rewrite_citations.py", "tests/e2e/structure.py")

home = {}
for m in MANUALS:
    fence = False
    for line in open(os.path.join(SRC, m), encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#+ ", line):
            home.setdefault(line.split(" ", 1)[1].strip(), m)

# README (or README.md), a comma, then the quoted title; a comment may wrap it over lines ("*", "#", "//")
GAP = r'(?:\s|\n\s*(?:\*(?!/)|#|//)?)*'
CITE = re.compile(r'(?<!["\w/.$-])README(?:\.md)?(,?' + GAP + r'\(?' + GAP + r')(\\?)"(\S[^"\\]{0,79})\\?"')


def fix(m):
    q = m.group(2) + '"'  # the quote, escaped inside a C string
    title = " ".join(re.sub(r"\n\s*(?:\*(?!/)|#|//)?\s*", " ", m.group(3)).split())
    if title in RENAMED:
        doc, new = RENAMED[title]
        return "%s%s%s%s%s" % (doc, m.group(1), q, new, q)
    if title not in home:
        print('left alone: README, "%s"' % title, file=sys.stderr)
        return m.group(0)
    return "%s%s%s%s%s" % (home[title], m.group(1), q, m.group(3), q)


def files():
    yield os.path.join(SRC, "CMakeLists.txt")
    for top in ("sim", "models", "analysis", "tests", "scenarios", ".ci"):
        for root, _, names in os.walk(os.path.join(SRC, top)):
            if any(x in root for x in ("/fuzz/corpus", "/fuzz/crashes", "/golden", "/tests/data")):
                continue
            for n in names:
                yield os.path.join(root, n)


for path in files():
    rel = os.path.relpath(path, SRC)
    if rel in SKIP or os.path.basename(path) == "README.md" and rel.count("/") <= 1:
        continue
    try:
        with open(path, encoding="utf-8") as f:
            s = f.read()
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    t = CITE.sub(fix, s)
    if t != s:
        with open(path, "w", encoding="utf-8") as f:
            f.write(t)
