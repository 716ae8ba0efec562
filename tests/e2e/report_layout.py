#!/usr/bin/env python3
"""The layout of a gpucap report page at a given window width, as the browser measured it (report_layout.js)
and as its screenshot shows it. Three commands:
  report_layout.py inject PAGE.html JS OUT.html   a copy of the page with the measuring script before </body>
  report_layout.py read < DOM > LAYOUT            the measurements, from Chromium's --dump-dom of that copy
  report_layout.py check KIND SCREENSHOT.png LAYOUT
check prints one line per check and exits 1 if any fails. Every page (KIND run, sweep or rec):
  width     the page does not scroll sideways (scrollWidth == clientWidth) and no element reaches beyond
            clientWidth (each offender is printed)
  notation  the rendered text (innerText) has no number in scientific notation such as 2.1203e+07 (printed)
  decision  the decision block is the first structure on the page and lies wholly in the first screen
            (top >= 0, bottom <= the window's inner height), and the screenshot shows text in it
  texts     no text of a chart is cut by the chart's edge or drawn over another of its texts; the point labels
            of scatter charts (text.label) do not intersect
  structure the page's structure, top to bottom, in the order KIND must show it (STRUCTURE below), each
            element inside the screenshot, below the one before it, with ink (drawn pixels) in its box
"""
import html
import re
import sys

CHARTS = ["fleet", "cost", "latency", "violations", "wait", "idle", "commitment"]
STRUCTURE = {  # KIND and ID of each element, as report_layout.js names them, in their order on the page
    "run": ["decision decision", "h2 run-1", "table run-1/0"] + ["chart chart-1-" + c for c in CHARTS],
    "sweep": ["decision decision", "h2 compare", "chart chart-pareto", "table compare/0"],
    "rec": ["decision decision", "h2 recommend", "chart chart-recommend-1", "table recommend/0", "h2 run-1"]
    + ["chart chart-1-" + c for c in CHARTS],
}


def inject(page, js, out):
    t, s = open(page).read(), open(js).read()
    i = t.rfind("</body>")
    open(out, "w").write(t[:i] + "<script>" + s + "</script>" + t[i:])


def read():
    dom = sys.stdin.read()
    i = dom.rfind('<pre id="gpucap-layout">')
    if i < 0:
        sys.exit("no measurements in the page (did the script run?)")
    sys.stdout.write(html.unescape(dom[i + len('<pre id="gpucap-layout">'):dom.find("</pre>", i)]) + "\n")


def ink(im, b):
    """The number of dark pixels (text, lines) in box b = (left, top, width, height) of the screenshot."""
    x, y, w, h = b
    return sum(1 for p in im.crop((x, y, x + w, y + h)).getdata() if max(p) < 140)


def check(kind, png, layout):
    from PIL import Image
    im = Image.open(png).convert("RGB")
    lines = [l.rstrip("\n") for l in open(layout) if l.strip()]
    vp = next((l.split() for l in lines if l.startswith("viewport ")), None)
    if not vp:
        print("FAIL no measurements")
        return False
    cw, sw, ih = int(vp[1]), int(vp[2]), int(vp[3])
    boxes = [(f[1], f[2], tuple(map(int, f[3:7]))) for f in (l.split() for l in lines if l.startswith("box "))]
    ok = True

    def verdict(good, what, detail=()):
        nonlocal ok
        print(("ok   " if good else "FAIL ") + what)
        for d in detail:
            print("       " + d)
        ok = ok and good

    wide = [l[5:] for l in lines if l.startswith("wide ")]
    verdict(sw == cw and not wide, f"width: the page is {sw} px wide in a {cw} px window; "
            f"{len(wide)} elements reach beyond it", wide[:10])
    sci = [l[4:] for l in lines if l.startswith("sci ")]
    verdict(not sci, f"notation: {len(sci)} numbers in scientific notation in the rendered text", sci[:10])
    dec = [b for k, i, b in boxes if k == "decision"]
    first = min(boxes, key=lambda kb: (kb[2][1], kb[0] != "decision")) if boxes else None
    if not dec:
        verdict(False, "decision: no decision block measured")
    else:
        d = dec[0]
        verdict(first and first[0] == "decision" and d[1] >= 0 and d[1] + d[3] <= ih,
                f"decision: first on the page, at y {d[1]} to {d[1] + d[3]} within the first screen of {ih} px")
        n = ink(im, d) if d[0] + d[2] <= im.width and d[1] + d[3] <= im.height else 0
        verdict(n >= 500, f"decision: {n} dark pixels of text in its box in the screenshot (at least 500)")
    bad = [l for l in lines if l.startswith(("cut ", "overlap "))]
    verdict(not bad, f"texts: {len(bad)} chart texts cut by the chart's edge or drawn over another", bad[:10])
    labels = [(i, b) for k, i, b in boxes if k == "label"]
    hits = [f"{a[0]} {a[1]} and {b[1]}" for j, a in enumerate(labels) for b in labels[j + 1:]
            if a[0] == b[0] and a[1][0] < b[1][0] + b[1][2] and b[1][0] < a[1][0] + a[1][2]
            and a[1][1] < b[1][1] + b[1][3] and b[1][1] < a[1][1] + a[1][3]]
    verdict(not hits, f"texts: {len(labels)} point labels, {len(hits)} pairs intersecting", hits[:10])
    prev = None
    for want in STRUCTURE[kind]:
        k, i = want.split()
        got = [b for bk, bi, b in boxes if bk == k and bi == i]
        if not got:
            verdict(False, f"structure: {want} not on the page")
            continue
        b = got[0]
        inside = b[0] >= 0 and b[0] + b[2] <= min(cw, im.width) and b[1] + b[3] <= im.height
        below = prev is None or b[1] >= prev[1] + prev[3] - 1
        n = ink(im, b) if inside else 0
        verdict(inside and below and n > 0, f"structure: {want} at x {b[0]}..{b[0] + b[2]}, y {b[1]}..{b[1] + b[3]}"
                f"{'' if below else ' NOT below the element before'}, {n} dark pixels")
        prev = b
    return ok


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "inject" and len(sys.argv) == 5:
        inject(*sys.argv[2:])
    elif cmd == "read":
        read()
    elif cmd == "check" and len(sys.argv) == 5 and sys.argv[2] in STRUCTURE:
        sys.exit(0 if check(*sys.argv[2:]) else 1)
    else:
        sys.exit(__doc__)
