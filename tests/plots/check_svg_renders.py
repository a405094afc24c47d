#!/usr/bin/env python3
"""Renders the register-pressure plots (analyzers/registers/RegisterPlot.h) in Debian's headless
Chromium and checks the pictures: not blank, the theme's background, and the colours of what each
SVG draws (the pressure line, the peak dot, the budget line), once in the light palette and once
with --force-dark-mode (the SVG's `prefers-color-scheme: dark` palette). And the hover: each SVG
inlined into an HTML page whose script asks Chromium's hit testing (elementFromPoint) what lies
under points of every column: its hover rectangle (which carries the tooltip), never something
drawn over it, except the peak dot, which has a tooltip of its own.

The SVGs come from the Catch2 tests: `PTXLS_TESTS "[plot]"` with PTXLS_PLOT_OUT=DIR writes its
sample plots to DIR. PNGs are decoded here (zlib, no PIL).

Usage: check_svg_renders.py PTXLS_TESTS [--keep DIR] [--chromium PATH]
  --keep DIR   also copy the SVGs and their renders (NAME.light.png, NAME.dark.png) to DIR
Exits 77 (skipped) when Chromium is absent or cannot render at all here.
"""
import argparse
import collections
import html
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

SKIP = 77
WIDTH, HEIGHT = 1200, 450
# The plot's own size (the rest of the window is the page's background).
PLOT_WIDTH, PLOT_HEIGHT = 1100, 400
# Sample plots the tests must write.
EXPECTED = ["gemm-loop-peak", "escaping", "loop-bands", "downsampled-10000", "empty", "long-name", "spills", "small"]

PALETTES = {
    "light": {"background": (0xFF, 0xFF, 0xFF), "line": (0x09, 0x69, 0xDA), "peak": (0xBC, 0x4C, 0x00),
              "budget": (0xCF, 0x22, 0x2E)},
    "dark": {"background": (0x0D, 0x11, 0x17), "line": (0x58, 0xA6, 0xFF), "peak": (0xFF, 0xA6, 0x57),
             "budget": (0xFF, 0x7B, 0x72)},
}


def decode_png(data):
    """(width, height, rows of (r, g, b) tuples) for an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
            elif kind != 0:
                raise ValueError(f"bad PNG filter {kind}")
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(a, b, tolerance=8):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def render(chromium, svg, png, profile, dark):
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={WIDTH},{HEIGHT}"]
    if dark:
        command.append("--force-dark-mode")
    command.append(svg.resolve().as_uri())
    if png.exists():
        png.unlink()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    return png.exists() and png.stat().st_size > 0, result.stdout.decode(errors="replace")


HOVER_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}</style></head>
<body>%s<pre id="ptxls-result"></pre><script>
const svg = document.querySelector('svg.ptxls-plot');
const hits = [...svg.querySelectorAll('rect.hit')];
const result = {hits: hits.length, covered: [], untitled: 0, peak: null};
for (const [index, rect] of hits.entries()) {
  const title = rect.querySelector('title');
  if (!title || rect.firstElementChild !== title || !title.textContent.trim()) result.untitled++;
  const box = rect.getBoundingClientRect();
  for (const fraction of [0.05, 0.5, 0.95]) {
    const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height * fraction);
    if (under !== rect && !(under && under.classList.contains('peak')))
      result.covered.push([index, fraction, under ? under.tagName + '.' + under.getAttribute('class') : null]);
  }
}
const dot = svg.querySelector('circle.peak');
if (dot) {
  const box = dot.getBoundingClientRect();
  const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  result.peak = under ? under.getAttribute('class') : null;
}
document.getElementById('ptxls-result').textContent = JSON.stringify(result);
</script></body></html>
"""


def check_hover(chromium, name, svg_text, page, profile):
    """Failures (strings) of the hit test of one SVG inlined into HTML."""
    page.write_text(HOVER_PAGE % svg_text, encoding="utf-8")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
               "--window-size=1200,900", "--dump-dom", page.resolve().as_uri()]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    dom = result.stdout.decode(errors="replace")
    start = dom.find('<pre id="ptxls-result">')
    end = dom.find("</pre>", start)
    if start < 0 or end < 0 or start + 23 == end:
        return [f"{name} (hover): the hit-test page produced no result"]
    found = json.loads(html.unescape(dom[start + 23:end]))
    failures = []
    expected = svg_text.count('class="hit"')
    if found["hits"] != expected:
        failures.append(f"{name} (hover): {found['hits']} hover rectangles in the DOM, {expected} in the SVG")
    if found["untitled"]:
        failures.append(f"{name} (hover): {found['untitled']} hover rectangles without a <title> first")
    if found["covered"]:
        failures.append(f"{name} (hover): {len(found['covered'])} points of columns are covered, e.g. "
                        f"{found['covered'][:3]}")
    if 'class="peak"' in svg_text and found["peak"] != "peak":
        failures.append(f"{name} (hover): the peak dot is covered by {found['peak']}")
    print(f"  {name} (hover): {found['hits']} columns hit-tested, {len(found['covered'])} covered")
    return failures


def check_picture(name, mode, svg_text, png):
    """Failures (strings) of one render."""
    palette = PALETTES[mode]
    width, height, rows = decode_png(png.read_bytes())
    if (width, height) != (WIDTH, HEIGHT):
        return [f"{name} ({mode}): screenshot is {width}x{height}, not {WIDTH}x{HEIGHT}"]
    failures = []
    counts = {key: 0 for key in ("line", "peak", "budget")}
    background = palette["background"]
    histogram = collections.Counter()
    for y in range(PLOT_HEIGHT):
        histogram.update(rows[y][:PLOT_WIDTH])
    drawn = 0
    for pixel, count in histogram.items():
        if not near(pixel, background, 24):
            drawn += count
        for key in counts:
            if near(pixel, palette[key]):
                counts[key] += count
    total = PLOT_WIDTH * PLOT_HEIGHT
    if not near(rows[5][5], background, 2):
        failures.append(f"{name} ({mode}): background {rows[5][5]} is not the palette's {background}")
    if drawn < total // 200:
        failures.append(f"{name} ({mode}): looks blank ({drawn} drawn pixels of {total})")
    wanted = {"line": 'class="line"', "peak": 'class="peak"', "budget": 'class="budget"'}
    for key, marker in wanted.items():
        present = marker in svg_text
        minimum = {"line": 100, "peak": 10, "budget": 100}[key]
        if present and counts[key] < minimum:
            failures.append(f"{name} ({mode}): the {key} colour {palette[key]} covers {counts[key]} pixels "
                            f"(at least {minimum} expected)")
        if not present and key == "line" and counts[key] > 20:
            failures.append(f"{name} ({mode}): the line colour appears without a line ({counts[key]} pixels)")
    print(f"  {name} ({mode}): {100.0 * drawn / total:.1f}% drawn, line {counts['line']} px, "
          f"peak {counts['peak']} px, budget {counts['budget']} px")
    return failures


def find_chromium(explicit):
    for candidate in [explicit, os.environ.get("CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")]:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptxls_tests")
    parser.add_argument("--keep")
    parser.add_argument("--chromium")
    args = parser.parse_args()

    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("SKIP: chromium is not installed (apt-get install chromium)")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="ptxls-plots-") as temp:
        temp = Path(temp)
        svgs, profile = temp / "svg", temp / "profile"
        environment = dict(os.environ, PTXLS_PLOT_OUT=str(svgs))
        result = subprocess.run([args.ptxls_tests, "[plot]"], env=environment, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, timeout=600)
        if result.returncode != 0:
            print(result.stdout.decode(errors="replace"))
            print(f"FAIL: {args.ptxls_tests} [plot] exited with {result.returncode}")
            return 1
        files = sorted(svgs.glob("*.svg"))
        names = {path.stem for path in files}
        missing = [name for name in EXPECTED if name not in names]
        if missing:
            print(f"FAIL: the tests wrote no {', '.join(missing)} plot into PTXLS_PLOT_OUT")
            return 1

        # Chromium that cannot render a trivial SVG here is an environment problem, not ours.
        probe = temp / "probe.svg"
        probe.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                         '<rect width="10" height="10" fill="#000"/></svg>')
        ok, log = render(chromium, probe, temp / "probe.png", profile, dark=False)
        if not ok:
            print(log)
            print(f"SKIP: {chromium} cannot take a headless screenshot here")
            return SKIP

        keep = Path(args.keep) if args.keep else None
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
        failures = []
        for svg in files:
            text = svg.read_text(encoding="utf-8")
            for mode in ("light", "dark"):
                png = temp / f"{svg.stem}.{mode}.png"
                ok, log = render(chromium, svg, png, profile, dark=mode == "dark")
                if not ok:
                    failures.append(f"{svg.stem} ({mode}): chromium wrote no screenshot\n{log}")
                    continue
                failures += check_picture(svg.stem, mode, text, png)
                if keep:
                    shutil.copy(png, keep / png.name)
            failures += check_hover(chromium, svg.stem, text, temp / f"{svg.stem}.html", profile)
            if keep:
                shutil.copy(svg, keep / svg.name)

    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"OK: {len(files)} plots render in light and dark mode, and every column answers the hover")
    return 0


if __name__ == "__main__":
    sys.exit(main())
