#!/usr/bin/env python3
"""Writes the image fixtures of tests/test_image_file.c into this directory.

Standard library only (zlib, struct). Run it from anywhere; the output is
deterministic and committed, so a change to it shows up as a diff. Every pixel
follows a formula that tests/test_image_file.c repeats in C:

    8-bit sample   v8(x, y, c)  = (x*37 + y*71 + c*50) & 0xff
    16-bit sample  v16(x, y, c) = (x*4099 + y*9973 + c*21011 + 257) & 0xffff
    palette        entry i = ((i*37+5) & 255, (i*91+17) & 255, (i*53+29) & 255),
                   alpha (tRNS) = (i*29+7) & 255 for i < 6, 255 beyond;
                   pixel index = (x*3 + y*5) % N (N = 11 for 8-bit, 16 for 4-bit)
    1-bit gray     bit = (x + 2*y) % 3 == 0        (decoded: 255 or 0)
    2-bit gray     level = (x + 3*y) & 3           (decoded: level * 85)
    gray8 + tRNS   key = v8(3, 2, 0): alpha 0 where the gray equals it, else 255

Images are W=7 columns by H=5 rows (odd sizes catch row/column swaps and
sub-byte padding); rows use filter types 0..4 in turn (row % 5) so that every
PNG filter is decoded. rgb8_adam7.png is Adam7-interlaced.

hdr_3x2.hdr is an uncompressed Radiance file of 3 columns by 2 rows whose texels
are the RGBE quads in HDR_PIXELS (value = mantissa * 2^(e - 136), e = 0: zero).
"""
import os
import struct
import zlib

W, H = 7, 5
HERE = os.path.dirname(os.path.abspath(__file__))


def v8(x, y, c):
    return (x * 37 + y * 71 + c * 50) & 0xFF


def v16(x, y, c):
    return (x * 4099 + y * 9973 + c * 21011 + 257) & 0xFFFF


def palette(n):
    return [((i * 37 + 5) & 255, (i * 91 + 17) & 255, (i * 53 + 29) & 255) for i in range(n)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(ftype, row, prev, bpp):
    out = bytearray([ftype])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev is not None else 0
        c = prev[i - bpp] if prev is not None and i >= bpp else 0
        pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][ftype]
        out.append((x - pred) & 0xFF)
    return bytes(out)


def pack_row(samples, depth):
    """Packs a row of samples (all channels in order) at depth bits."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, nbits = bytearray(), 0, 0
    for s in samples:
        acc = acc << depth | s
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(name, depth, ctype, channels, pixel, extra=b"", interlace=False):
    """pixel(x, y) -> list of `channels` samples."""
    bpp = max(1, channels * depth // 8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        prev = None
        for r, y in enumerate(ys):
            row = pack_row([s for x in xs for s in pixel(x, y)], depth)
            raw += filter_row(r % 5, row, prev, bpp)
            prev = row
    ihdr = struct.pack(">IIBBBBB", W, H, depth, ctype, 0, 0, 1 if interlace else 0)
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def plte(n, alphas=0):
    out = chunk(b"PLTE", bytes(c for e in palette(n) for c in e))
    if alphas:
        out += chunk(b"tRNS", bytes((i * 29 + 7) & 255 for i in range(alphas)))
    return out


HDR_PIXELS = [(128, 64, 32, 129), (0, 0, 0, 0), (255, 1, 128, 136),
              (200, 100, 50, 120), (16, 32, 64, 140), (1, 2, 3, 128)]


def main():
    for depth, v in ((8, v8), (16, v16)):
        png("gray%d.png" % depth, depth, 0, 1, lambda x, y, v=v: [v(x, y, 0)])
        png("ga%d.png" % depth, depth, 4, 2, lambda x, y, v=v: [v(x, y, c) for c in range(2)])
        png("rgb%d.png" % depth, depth, 2, 3, lambda x, y, v=v: [v(x, y, c) for c in range(3)])
        png("rgba%d.png" % depth, depth, 6, 4, lambda x, y, v=v: [v(x, y, c) for c in range(4)])
    png("pal8.png", 8, 3, 1, lambda x, y: [(x * 3 + y * 5) % 11], extra=plte(11))
    png("pal8_trns.png", 8, 3, 1, lambda x, y: [(x * 3 + y * 5) % 11], extra=plte(11, 6))
    png("pal4.png", 4, 3, 1, lambda x, y: [(x * 3 + y * 5) % 16], extra=plte(16))
    png("gray1.png", 1, 0, 1, lambda x, y: [1 if (x + 2 * y) % 3 == 0 else 0])
    png("gray2.png", 2, 0, 1, lambda x, y: [(x + 3 * y) & 3])
    png("gray8_trns.png", 8, 0, 1, lambda x, y: [v8(x, y, 0)], extra=chunk(b"tRNS", struct.pack(">H", v8(3, 2, 0))))
    png("rgb8_adam7.png", 8, 2, 3, lambda x, y: [v8(x, y, c) for c in range(3)], interlace=True)

    hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 3\n" + bytes(b for p in HDR_PIXELS for b in p)
    with open(os.path.join(HERE, "hdr_3x2.hdr"), "wb") as f:
        f.write(hdr)


if __name__ == "__main__":
    main()
