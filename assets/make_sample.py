#!/usr/bin/env python3
"""Writes assets/sample.png: a deterministic 512x512 RGBA test image.

Only the standard library (zlib, struct). The picture has what image filters
need to show their effect: smooth gradients (blur leaves them alone), hard-edged
shapes (edges for Sobel), thin lines, a checkerboard, blocky "text", and a
half-transparent band (filters must keep alpha). Run it again and the pixels are
the same; the PNG committed beside it is its output.

    python3 assets/make_sample.py [out.png]
"""
import struct
import sys
import zlib

W = H = 512

# A 5x7 bitmap font for the few letters the banner needs.
FONT = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    " ": ["00000"] * 7,
}


def pixel(x, y):
    # background: a diagonal colour gradient
    r = x * 255 // (W - 1)
    g = y * 255 // (H - 1)
    b = (x + y) * 255 // (W + H - 2)
    a = 255
    # checkerboard in the top-left quarter
    if x < 128 and y < 128 and ((x // 16) + (y // 16)) % 2 == 0:
        r, g, b = 240, 240, 240
    # a filled disc
    dx, dy = x - 352, y - 160
    if dx * dx + dy * dy <= 90 * 90:
        r, g, b = 220, 40, 40
        if dx * dx + dy * dy <= 40 * 40:
            r, g, b = 250, 210, 30
    # a rectangle with a thick outline
    if 80 <= x < 240 and 280 <= y < 440:
        inner = 92 <= x < 228 and 292 <= y < 428
        r, g, b = (30, 90, 200) if inner else (10, 10, 10)
    # a triangle
    if 300 <= y < 460 and abs(x - 400) <= (y - 300) // 2:
        r, g, b = 40, 180, 80
    # thin diagonal lines
    if (x - y) % 23 == 0 and y > 460:
        r, g, b = 0, 0, 0
    # a half-transparent band across the bottom
    if y >= 480:
        a = 128
    return r, g, b, a


def banner(img):
    # "AMP VK" in 6x-scaled 5x7 letters along the top
    x0, y0, s = 150, 20, 6
    for k, ch in enumerate("AMP VK"):
        for row, bits in enumerate(FONT[ch]):
            for col, bit in enumerate(bits):
                if bit == "1":
                    for yy in range(s):
                        for xx in range(s):
                            x = x0 + (k * 6 + col) * s + xx
                            y = y0 + row * s + yy
                            img[y][x] = (255, 255, 255, 255)


def png(img):
    raw = b"".join(b"\x00" + bytes(c for p in row for c in p) for row in img)

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/sample.png"
    img = [[pixel(x, y) for x in range(W)] for y in range(H)]
    banner(img)
    with open(out, "wb") as f:
        f.write(png(img))


if __name__ == "__main__":
    main()
