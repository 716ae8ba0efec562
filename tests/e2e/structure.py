#!/usr/bin/env python3
"""e2e_structure: the project's map matches its tree.

1. Every source path the documents name exists: README.md, the folder manuals, models/SOURCES.md,
   models/ARCHITECTURE.md, the man page sim/cli/gpucap.1 and tests/mutants.txt (a `*` or an upper-case
   placeholder such as NAME matches any name).
2. Every citation of a document section in the code and the documents, `README, "Warnings"` or
   `models/README.md, "Warnings"` (a comment may wrap it over lines), names an existing heading of that file
   (Markdown `#` headings; the man page's .SH and .SS).
3. Every #include between folders follows the allowed-edges tables of models/ARCHITECTURE.md (groups of
   files by path pattern, which groups each may include, private and system headers and who may include
   them).
4. The folders' libraries (gpucap_library(... USES ...) in their CMakeLists.txt) reach exactly the folders
   the edges table allows: the build and the table cannot drift apart.
5. README.md has at most 300 lines and links every manual (the folder READMEs, the key reference, the
   architecture page, SOURCES.md, the man page).

Usage: structure.py SOURCE_TREE. Prints each failure; exit status 1 if any, 0 otherwise.
"""
import fnmatch
import glob
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else "."
fails = []

DOCS = ["README.md", "models/README.md", "analysis/README.md", "scenarios/README.md", "tests/README.md",
        "models/ARCHITECTURE.md", "models/SOURCES.md", "sim/cli/gpucap.1", "tests/mutants.txt"]
TOP = ("sim", "models", "analysis", "tests", "scenarios")


def read(path):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return f.read()


def exists(path):
    path = re.sub(r"<[^>]*>|\$\w+", "*", path)
    full = os.path.join(SRC, path)
    if os.path.exists(full) or glob.glob(full):
        return True
    # placeholders: NAME, TYPE, P ... stand for any name
    return bool(glob.glob(os.path.join(SRC, re.sub(r"[A-Z][A-Z_]+(?=[-./]|$)", "*", path))))


# ---- 1. paths named in the documents --------------------------------------------------------------------
PATH = re.compile(r"(?<![\w/.$<-])((?:%s)/[\w.*/+<>$-]*[\w*>])" % "|".join(TOP))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
for doc in DOCS:
    text = read(doc)
    if doc.endswith(".1"):
        text = text.replace("\\-", "-").replace("\\fI", "").replace("\\fB", "").replace("\\fR", "")
    # models/ARCHITECTURE.md's plan names folders that do not exist yet
    text = text.split("<!-- structure: planned paths below -->")[0]
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in PATH.finditer(line):
            p = m.group(1).rstrip(".")
            if not exists(p):
                fails.append("%s:%d: names %s, which does not exist" % (doc, lineno, p))
        if doc.endswith(".md"):
            for m in LINK.finditer(line):
                t = m.group(1)
                if re.match(r"[a-z]+:", t):
                    continue
                p = os.path.normpath(os.path.join(os.path.dirname(doc), t))
                if not exists(p):
                    fails.append("%s:%d: links to %s, which does not exist" % (doc, lineno, t))

# ---- 2. citations of sections ---------------------------------------------------------------------------
def headings(doc):
    text = read(doc)
    if doc.endswith(".1"):
        return {h.strip().strip('"') for h in re.findall(r"^\.S[HS] (.*)$", text, re.M)}
    out = set()
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#+ ", line):
            out.add(line.split(" ", 1)[1].strip())
    return out


CITED = {"README": "README.md", "README.md": "README.md"}
for d in DOCS[:5] + ["models/ARCHITECTURE.md", "models/SOURCES.md", "sim/cli/gpucap.1"]:
    CITED[d] = d
CITE = re.compile(r'(?<!["\w/.$-])((?:(?:models|analysis|scenarios|tests)/README\.md)|models/ARCHITECTURE\.md'
                  r'|models/SOURCES\.md|sim/gpucap\.1|README(?:\.md)?),?\s*\(?\s*\\?"(\S[^"\\]{0,79})\\?"')
HEADS = {}
files = []
for top in TOP + (".ci",):
    for root, _, names in os.walk(os.path.join(SRC, top)):
        if "/fuzz/corpus" in root or "/fuzz/crashes" in root or "/golden" in root or "/data/" in root + "/":
            continue
        files += [os.path.join(root, n) for n in names
                  if re.search(r"\.(c|h|sh|py|md|1|txt|yaml|sql|cmake)$|^run$|CMakeLists\.txt$", n)]
files += [os.path.join(SRC, "CMakeLists.txt"), os.path.join(SRC, "README.md")]
for path in sorted(set(files)):
    rel = os.path.relpath(path, SRC)
    if rel in ("tests/e2e/structure.py", "tests/tools/rewrite_citations.py"):
        continue
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    # a citation may wrap over comment lines: join them
    text = re.sub(r'\\\n|"\s*\n\s*"', "", raw)
    text = re.sub(r"\n[ \t]*(?:\*(?!/)|#|//|;)?[ \t]*", " ", text)
    for m in CITE.finditer(text):
        doc = CITED[m.group(1)]
        if doc not in HEADS:
            HEADS[doc] = headings(doc)
        title = " ".join(m.group(2).split())
        if title not in HEADS[doc]:
            fails.append('%s: cites %s, "%s", which has no such heading' % (rel, doc, title))

# ---- 3. includes between folders ------------------------------------------------------------------------
arch = read("models/ARCHITECTURE.md")


def table(marker):
    part = arch.split("<!-- structure: %s -->" % marker, 1)[1].lstrip("\n")
    rows = []
    for line in part.splitlines():
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if set(cells[0]) <= set("-") or cells[0] in ("group", "header"):
            continue
        rows.append(cells)
    return rows


groups = [(c[0], re.findall(r"`([^`]+)`", c[1])) for c in table("groups")]
edges = {c[0]: {g.strip() for g in c[1].split(",")} for c in table("edges")}
private = {c[0].strip("`"): re.findall(r"`([^`]+)`", c[1]) for c in table("private")}


def group_of(rel):
    for name, patterns in groups:
        if any(fnmatch.fnmatch(rel, p) for p in patterns):
            return name
    return None


where = {}
sources = []
for top in ("sim", "models", "analysis"):
    for path in sorted(glob.glob(os.path.join(SRC, top, "**", "*.[ch]"), recursive=True)):
        rel = os.path.relpath(path, SRC)
        sources.append(rel)
        if rel.endswith(".h"):
            where.setdefault(os.path.basename(rel), []).append(rel)
for name, places in where.items():
    if len(places) > 1:
        fails.append("header %s is in more than one folder: %s" % (name, ", ".join(places)))
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
for rel in sources:
    g = group_of(rel)
    if g is None or g not in edges:
        fails.append("%s: in no group of models/ARCHITECTURE.md" % rel)
        continue
    for kind, name in INC.findall(read(rel)):
        if name in private and not any(fnmatch.fnmatch(rel, p) for p in private[name]):
            fails.append("%s: includes %s, which only %s may" % (rel, name, ", ".join(private[name])))
        if kind != '"' or name not in where:
            continue  # a system header, or one the build generates
        hg = group_of(where[name][0])
        if hg not in edges[g]:
            fails.append("%s (%s): includes %s (%s); %s may include only %s" %
                         (rel, g, where[name][0], hg, g, ", ".join(sorted(edges[g]))))

# ---- 4. the build allows the same edges -----------------------------------------------------------------
# Each folder's library (gpucap_library(gpucap_NAME ... USES ...) in its CMakeLists.txt) reaches the folders
# of the libraries it uses, directly or through theirs: that closure must be the table's row.
LIB = re.compile(r"gpucap_library\(gpucap_(\w+)(.*?)\)", re.S)
uses = {}
for path in glob.glob(os.path.join(SRC, "**", "CMakeLists.txt"), recursive=True):
    if "/tests/" in path or "/build" in path:
        continue
    with open(path, encoding="utf-8") as f:
        for name, body in LIB.findall(f.read()):
            used = body.split("USES", 1)[1] if "USES" in body else ""
            uses[name] = {u for u in re.findall(r"gpucap_(\w+)", used)}
if not uses:
    fails.append("no gpucap_library(...) found in the folders' CMakeLists.txt")


def reach(name, seen=None):
    seen = set() if seen is None else seen
    for u in uses.get(name, ()):
        if u not in seen:
            seen.add(u)
            reach(u, seen)
    return seen


for name in sorted(uses):
    group = "engine" if name == "engine" else name
    if group not in edges:
        fails.append("library gpucap_%s: no row for %s in models/ARCHITECTURE.md" % (name, group))
        continue
    built = {"engine" if u == "engine" else u for u in reach(name)} | {group}
    if built != edges[group]:
        fails.append("library gpucap_%s reaches %s; models/ARCHITECTURE.md allows %s" %
                     (name, ", ".join(sorted(built)), ", ".join(sorted(edges[group]))))

# ---- 5. a short README that reaches every manual ----------------------------------------------------------
# README.md is the front page: at most 300 lines, and it links every manual the rest of the text moved to,
# so that each former section is one link away.
readme = read("README.md")
if len(readme.splitlines()) > 300:
    fails.append("README.md has %d lines; the front page keeps to 300" % len(readme.splitlines()))
linked = {os.path.normpath(m.group(1)) for m in LINK.finditer(readme)}
for manual in DOCS[1:5] + ["scenarios/REFERENCE.md", "models/ARCHITECTURE.md", "models/SOURCES.md",
                           "sim/cli/gpucap.1"]:
    if manual not in linked:
        fails.append("README.md does not link %s" % manual)

for f in fails:
    print("FAIL: " + f)
print("structure: %d documents, %d files searched for citations, %d sources' includes; %d failures" %
      (len(DOCS), len(files), len(sources), len(fails)))
sys.exit(1 if fails else 0)
