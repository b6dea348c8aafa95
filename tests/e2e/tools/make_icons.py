"""Render the PNG app icons with headless Chromium and store them as small palette PNGs.

    python tests/e2e/tools/make_icons.py      # writes static/icons/*.png

Not a test: run it by hand after changing the icon design, and commit the PNGs.
"""

import os
import struct
import sys
import zlib
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[3] / "static" / "icons"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

PAGE = """<!doctype html><html><head><style>
html, body {{ margin: 0; background: transparent; }}
div {{ width: {size}px; height: {size}px; border-radius: {radius}px; background: #edc22e;
  display: flex; align-items: center; justify-content: center; color: #fff;
  font: 700 {font}px system-ui, "DejaVu Sans", sans-serif; letter-spacing: -0.04em; }}
</style></head><body><div>2048</div></body></html>"""

# name: (size, corner radius as a fraction, font size as a fraction)
VARIANTS = {
    "icon-192.png": (192, 0.09, 0.30),
    "icon-512.png": (512, 0.09, 0.30),
    "icon-maskable-512.png": (512, 0.0, 0.22),  # text inside the 80% safe zone
    "apple-touch-icon.png": (180, 0.0, 0.27),   # iOS rounds the corners itself
}


def decode_rgba(png: bytes) -> tuple[int, int, list[bytes]]:
    """Rows of RGBA pixels from an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, bpp = 8, b"", 0, 4
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride, rows = width * bpp, []
    prev = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 3:
            line = b"".join(bytes(line[i : i + 3]) + b"\xff" for i in range(0, stride, 3))
        rows.append(bytes(line))
    return width, height, rows


def encode_palette(width: int, height: int, rows: list[bytes], opaque: bool) -> bytes:
    """A palette PNG; colours are rounded until at most 256 remain."""
    for shift in range(5):
        mask = 0xFF & ~((1 << shift) - 1)
        pixels = [
            [tuple((row[i + k] & mask) for k in range(4)) for i in range(0, len(row), 4)] for row in rows
        ]
        if opaque:
            pixels = [[(r, g, b, 255) for r, g, b, _ in line] for line in pixels]
        else:  # one fully transparent colour
            pixels = [[p if p[3] else (0, 0, 0, 0) for p in line] for line in pixels]
        colours = sorted({p for line in pixels for p in line}, key=lambda p: p[3])
        if len(colours) <= 256:
            break
    else:
        sys.exit("too many colours")
    index = {p: i for i, p in enumerate(colours)}
    raw = b"".join(b"\x00" + bytes(index[p] for p in line) for line in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    plte = b"".join(bytes(p[:3]) for p in colours)
    alphas = bytes(p[3] for p in colours).rstrip(b"\xff")
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
        + chunk(b"PLTE", plte)
        + (chunk(b"tRNS", alphas) if alphas and not opaque else b"")
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, (size, radius, font) in VARIANTS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(PAGE.format(size=size, radius=round(size * radius), font=round(size * font)))
            shot = page.screenshot(omit_background=True)
            width, height, rows = decode_rgba(shot)
            png = encode_palette(width, height, rows, opaque=radius == 0)
            (ICONS / name).write_bytes(png)
            print(f"{name}: {len(png)} bytes")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
