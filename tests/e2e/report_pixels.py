#!/usr/bin/env python3
"""Check a screenshot of a gpucap report: each chart (its page position from chart-positions, lines "ID X Y W H"
as measured by the browser) must show data in its plot area. The plot area is the chart's box less the margins
of analysis/report_svg.c (left 78, right 190, top 34, bottom 46 of 960 x 320); in it, titles, axes, ticks and
grid lines are grey, and only the data (areas, lines, bars, points, the SLO line) is coloured, so a chart
counts as drawn when at least MIN_PIXELS of its plot-area pixels are coloured (max - min channel > 60).
A 2-px line across the plot is about 1400 such pixels, one point of a scatter plot 50 to 150; an empty chart has 0.
Usage: report_pixels.py SCREENSHOT.png POSITIONS [EXPECTED_CHARTS]; prints one line per chart; exit 1 when a
chart is blank, missing or out of the screenshot, or fewer than EXPECTED_CHARTS were measured."""
import sys
from PIL import Image

MIN_PIXELS = 150
im = Image.open(sys.argv[1]).convert("RGB")
want = int(sys.argv[3]) if len(sys.argv) > 3 else 1
ok, n = True, 0
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) != 5 or not f[0].startswith("chart-"):
        continue
    n += 1
    x, y, w, h = map(int, f[1:])
    sx, sy = w / 960.0, h / 320.0
    box = (int(x + 78 * sx), int(y + 34 * sy), int(x + w - 190 * sx), int(y + h - 46 * sy))
    if w <= 0 or h <= 0 or box[2] > im.width or box[3] > im.height:
        print(f"{f[0]}: outside the {im.width}x{im.height} screenshot")
        ok = False
        continue
    coloured = sum(1 for p in im.crop(box).getdata() if max(p) - min(p) > 60)
    print(f"{f[0]}: {coloured} coloured pixels in the plot area")
    ok = ok and coloured >= MIN_PIXELS
if n < want:
    print(f"{n} charts measured, expected {want}")
    ok = False
sys.exit(0 if ok else 1)
