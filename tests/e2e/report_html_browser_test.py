#!/usr/bin/env python3
"""report.html in a real browser: a small run writes it (output.html: true), and
`kexp report --html` writes it again; headless Chromium then loads it from file://.

It fails when the page refers to anything but data: URIs and #anchors, when Chromium
logs a script error or a resource it could not load, when the DOM lacks the findings,
a plot or the manifest, or when the screenshot is blank (too few non-white pixels, or no
coloured pixels: the plots' lines are coloured, the text is not).

Exits 77 (skipped) when chromium is not installed (scripts/setup.sh installs it).
    report_html_browser_test.py KEXP_BINARY OUTPUT_DIR
The screenshot stays in OUTPUT_DIR/report.png, to look at.
"""
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import zlib

CONFIG = """\
# A small sweep of both forms, to look at in a browser.
experiment: browser <&> check
seed: 3
dataset:
  plugin: cubic
  n: [60, 120, 240]
  d: 3
  noise: 0.1
kernels:
  - plugin: polynomial
    degree: 2
solvers:
  - plugin: primal_ridge
    lambda: [0.001, 0.1]
  - plugin: kernel_ridge
    lambda: [0.001, 0.1]
output:
  html: true
"""

BROWSER_ERRORS = ("Uncaught", "Failed to load", "ERR_FILE_NOT_FOUND", "Not allowed to load",
                  "net::ERR_")


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def png_pixels(data):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB or RGBA PNG, non-interlaced."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        fail(f"unexpected PNG format: depth {depth}, colour type {colour}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    low7 = int.from_bytes(b"\x7f" * stride, "big")
    high = int.from_bytes(b"\x80" * stride, "big")
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 0:
            pass
        elif kind == 2:
            # Up, the most common: bytewise addition modulo 256 on whole rows at once.
            a, b = int.from_bytes(line, "big"), int.from_bytes(previous, "big")
            line = bytearray((((a & low7) + (b & low7)) ^ ((a ^ b) & high)).to_bytes(stride, "big"))
        else:
            unfilter(kind, line, previous, channels)
        rows.append(line)
        previous = line
    return width, height, channels, rows


def unfilter(kind, line, previous, channels):
    """Sub (1), Average (3) and Paeth (4), in place, byte by byte."""
    for i in range(len(line)):
        a = line[i - channels] if i >= channels else 0
        b = previous[i]
        c = previous[i - channels] if i >= channels else 0
        if kind == 1:
            line[i] = (line[i] + a) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 0xFF
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 0xFF


def main():
    kexp, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (scripts/setup.sh installs it)")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "browser.yaml").write_text(CONFIG)
    folder = out / "results"
    run = subprocess.run([str(kexp), "run", str(out / "browser.yaml"), "--out", str(folder),
                          "--quiet", "--timing-max-measurements", "1"],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"kexp run exited {run.returncode}: {run.stderr}")
    page = folder / "report.html"
    if not page.is_file():
        fail("output.html: true wrote no report.html")
    page.unlink()
    report = subprocess.run([str(kexp), "report", "--html", str(folder)], capture_output=True,
                            text=True, timeout=60)
    if report.returncode != 0 or not page.is_file():
        fail(f"kexp report --html exited {report.returncode}: {report.stderr}")

    html = page.read_text()
    # No path of the machine: the folders the test ran in, absolute, appear nowhere.
    for place in {str(out.resolve()), str(out.absolute()), str(pathlib.Path.cwd())}:
        if place in html:
            fail(f"report.html names the absolute path {place}")
    for attribute, target in re.findall(r'\b(src|href)\s*=\s*["\']([^"\']*)', html):
        if not (target.startswith("data:") or target.startswith("#")):
            fail(f"report.html refers to {attribute}={target!r}, outside the page")
    svgs = sorted((folder / "plots").glob("*.svg"))
    if not svgs:
        fail("the run drew no plots (is gnuplot installed?)")

    url = page.resolve().as_uri()
    flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
             "--v=0", "--window-size=1200,2000", "--hide-scrollbars"]
    dom = subprocess.run([chromium, *flags, "--dump-dom", url], capture_output=True, text=True,
                         timeout=40)
    shot = out / "report.png"
    screenshot = subprocess.run([chromium, *flags, f"--screenshot={shot}", url],
                                capture_output=True, text=True, timeout=40)
    for name, result in (("--dump-dom", dom), ("--screenshot", screenshot)):
        for line in result.stderr.splitlines():
            if any(e in line for e in BROWSER_ERRORS):
                fail(f"chromium {name} logged: {line}")
    for expected in ("<h2>Setup</h2>", "A small sweep of both forms", "λ ∈ {0.001, 0.1}",
                     "<h2>Findings</h2>", "<h2>Plots</h2>", "<h2>What ran, where</h2>",
                     "<h2>Regenerate it</h2>", "browser &lt;&amp;&gt; check", "<details>"):
        if expected not in dom.stdout:
            fail(f"the page's DOM lacks {expected!r}")
    if dom.stdout.count("<figure>") != len(svgs):
        fail(f"{dom.stdout.count('<figure>')} figures in the DOM for {len(svgs)} plots")
    if not shot.is_file():
        fail(f"no screenshot: {screenshot.stderr[-2000:]}")

    width, height, channels, rows = png_pixels(shot.read_bytes())
    # Every other pixel of every other row: enough to tell a page from a blank one.
    non_white = coloured = 0
    white = b"\xff" * (width * channels)
    for line in rows[::2]:
        if line == white:
            continue
        for x in range(0, width * channels, 2 * channels):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if min(r, g, b) < 235:
                non_white += 1
            if max(r, g, b) - min(r, g, b) > 80:
                coloured += 1
    fraction = non_white / (((height + 1) // 2) * ((width + 1) // 2))
    print(f"screenshot {width}x{height}: {fraction:.1%} non-white, {coloured} coloured pixels")
    if fraction < 0.01:
        fail("the screenshot is blank")
    if coloured < 100:
        fail("the screenshot has no coloured pixels: the plots were not drawn")


if __name__ == "__main__":
    main()
