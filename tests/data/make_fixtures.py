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
PNG filter is decoded. rgb8_adam7.png is Adam7-interlaced, and so are the
palette files pal1_adam7.png, pal2_adam7.png, pal4_adam7.png and pal8_adam7.png,
whose palettes hold only the N entries the pixels use (2, 3, 15 and 11), so a
stray bit in a decoder's buffer shows as an index past the palette's end; with
OpenCV at hand each is checked against cv2.imread's decode.

hdr_3x2.hdr is an uncompressed Radiance file of 3 columns by 2 rows whose texels
are the RGBE quads in HDR_PIXELS (value = mantissa * 2^(e - 136), e = 0: zero).

formats/ holds the other formats' fixtures of tests/test_image_api.c, written by
hand with struct (stb cannot be called from Python), 7x5 like the PNGs:

    bmp24.bmp       24-bit BMP (BI_RGB, rows bottom-up, padded to 4 bytes), v8
    bmp24_topdown.bmp  the same with a negative height (rows top-down)
    bmp32.bmp       32-bit BMP (BI_RGB, BGRA), alpha v8(x, y, 3)
    tga_gray.tga    TGA type 3 (gray), 8 bits, bottom-up, v8
    tga_rgb.tga     TGA type 2, 24 bits (BGR), bottom-up, v8
    tga_rgba.tga    TGA type 2, 32 bits (BGRA), top-down (descriptor 0x28), v8
    tga_gray_rle.tga, tga_rgb_rle.tga, tga_rgba_rle.tga
                    TGA types 11 and 10 (RLE), bottom-up, of run8(x, y, c) =
                    v8(x // 3, y, c): run packets of 3 pixels and raw packets of 1
    psd_rgb8.psd    PSD, RGB mode, 3 channels, 8 bits, raw (compression 0), v8
    psd_rgb8_rle.psd   the same, PackBits (compression 1), run8
    psd_rgb16.psd   PSD, 3 channels, 16 bits, raw, v16
    psd_rgba16.psd  PSD, 4 channels, 16 bits, raw, v16 with alpha 65535 where
                    (x + y) is even, else 0 (no partial alpha: stb_image removes
                    Photoshop's white matte from partial alpha)

and the JPEG fixtures, which need OpenCV (python3-opencv; skipped with a note when
it is missing, the committed files stay): a 16x12 smooth image smooth(x, y, c) =
10 + x*7 + y*5 + c*40 + (x*y) % 5 (no wrap-around: smooth) written by cv2.imwrite at quality 90
(jpeg_rgb.jpg, 4:2:0), also progressive (jpeg_rgb_progressive.jpg) and with a
restart marker after every MCU (jpeg_rgb_restart.jpg), and its gray channel 0
(jpeg_gray.jpg), with what cv2.imread decodes them to as PNGs (jpeg_rgb.cv2.png,
RGB, which the progressive and restart files decode to as well; jpeg_gray.cv2.png).
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


def png(name, depth, ctype, channels, pixel, extra=b"", interlace=False, size=(W, H)):
    """pixel(x, y) -> list of `channels` samples."""
    W, H = size
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


# ---- BMP, TGA, PSD (tests/data/formats) ----

FORMATS = os.path.join(HERE, "formats")


def run8(x, y, c):
    return v8(x // 3, y, c)


def write(name, data):
    os.makedirs(FORMATS, exist_ok=True)
    with open(os.path.join(FORMATS, name), "wb") as f:
        f.write(data)


def bmp(name, bits, topdown=False):
    """BI_RGB BMP of v8: 24-bit BGR, or 32-bit BGRA with alpha v8(x, y, 3)."""
    pad = (-W * bits // 8) & 3
    rows = []
    for y in range(H):
        row = bytearray()
        for x in range(W):
            row += bytes([v8(x, y, 2), v8(x, y, 1), v8(x, y, 0)])
            if bits == 32:
                row.append(v8(x, y, 3))
        rows.append(bytes(row) + bytes(pad))
    data = b"".join(rows if topdown else rows[::-1])
    info = struct.pack("<IiiHHIIiiII", 40, W, -H if topdown else H, 1, bits, 0, len(data), 2835, 2835, 0, 0)
    head = struct.pack("<2sIHHI", b"BM", 14 + len(info) + len(data), 0, 0, 14 + len(info))
    write(name, head + info + data)


def tga_pixel(value, x, y, channels):
    s = [value(x, y, c) for c in range(channels)]
    if channels >= 3:
        s[0], s[2] = s[2], s[0]  # BGR(A)
    return bytes(s)


def tga_rle(pixels):
    """RLE packets: a run of equal pixels (2..128) as one, else raw packets (1..128)."""
    out, i = bytearray(), 0
    while i < len(pixels):
        j = i
        while j + 1 < len(pixels) and pixels[j + 1] == pixels[i] and j + 1 - i < 128:
            j += 1
        if j > i:
            out += bytes([0x80 | (j - i)]) + pixels[i]
            i = j + 1
            continue
        j = i + 1
        while j < len(pixels) and j - i < 128 and (j + 1 >= len(pixels) or pixels[j + 1] != pixels[j]):
            j += 1
        out += bytes([j - i - 1]) + b"".join(pixels[i:j])
        i = j
    return bytes(out)


def tga(name, channels, value, rle=False, topdown=False):
    """TGA of channels 1 (type 3/11), 3 or 4 (type 2/10); bottom-up unless topdown."""
    kind = (3 if channels == 1 else 2) + (8 if rle else 0)
    alpha_bits = 8 if channels == 4 else 0
    head = struct.pack("<BBBHHBHHHHBB", 0, 0, kind, 0, 0, 0, 0, 0, W, H, channels * 8,
                       alpha_bits | (0x20 if topdown else 0))
    ys = range(H) if topdown else range(H - 1, -1, -1)
    pixels = [tga_pixel(value, x, y, channels) for y in ys for x in range(W)]
    write(name, head + (tga_rle(pixels) if rle else b"".join(pixels)))


def packbits(data):
    """PackBits as PSD uses it: n < 128 copies n+1 bytes, 257-n repeats the next one."""
    out, i = bytearray(), 0
    while i < len(data):
        j = i
        while j + 1 < len(data) and data[j + 1] == data[i] and j + 1 - i < 127:
            j += 1
        if j > i:
            out += bytes([257 - (j - i + 1), data[i]])
            i = j + 1
            continue
        j = i + 1
        while j < len(data) and j - i < 128 and (j + 1 >= len(data) or data[j + 1] != data[j]):
            j += 1
        out += bytes([j - i - 1]) + data[i:j]
        i = j
    return bytes(out)


def psd(name, channels, depth, value, rle=False):
    """An RGB-mode PSD with only the merged image: channel planes, row by row."""
    head = struct.pack(">4sH6sHIIHH", b"8BPS", 1, bytes(6), channels, H, W, depth, 3)
    head += struct.pack(">III", 0, 0, 0)  # color mode data, image resources, layers: empty
    fmt = ">H" if depth == 16 else ">B"
    rows = [[b"".join(struct.pack(fmt, value(x, y, c)) for x in range(W)) for y in range(H)] for c in range(channels)]
    if not rle:
        return write(name, head + struct.pack(">H", 0) + b"".join(r for plane in rows for r in plane))
    packed = [packbits(r) for plane in rows for r in plane]
    write(name, head + struct.pack(">H", 1) + b"".join(struct.pack(">H", len(p)) for p in packed) + b"".join(packed))


def psd_rgba16(x, y, c):
    return v16(x, y, c) if c < 3 else (65535 if (x + y) % 2 == 0 else 0)


JPEG_W, JPEG_H = 16, 12


def smooth(x, y, c):
    return 10 + x * 7 + y * 5 + c * 40 + (x * y) % 5


def jpegs():
    try:
        import cv2
        import numpy as np
    except ImportError:
        print("make_fixtures.py: no OpenCV (python3-opencv): the JPEG fixtures in formats/ are kept as they are")
        return
    rgb = np.array([[[smooth(x, y, c) for c in range(3)] for x in range(JPEG_W)] for y in range(JPEG_H)], np.uint8)
    bgr, q90 = rgb[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90]
    for name, img, params in (("jpeg_rgb", bgr, q90), ("jpeg_gray", rgb[:, :, 0].copy(), q90),
                              ("jpeg_rgb_progressive", bgr, q90 + [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
                              ("jpeg_rgb_restart", bgr, q90 + [cv2.IMWRITE_JPEG_RST_INTERVAL, 1])):
        path = os.path.join(FORMATS, name + ".jpg")
        ok, data = cv2.imencode(".jpg", img, params)
        assert ok
        write(name + ".jpg", data.tobytes())
        dec = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if name != "jpeg_rgb" and dec.ndim == 3:
            # the same coefficients: libjpeg decodes them as jpeg_rgb.jpg's
            assert (dec == cv2.imread(os.path.join(FORMATS, "jpeg_rgb.jpg"), cv2.IMREAD_UNCHANGED)).all()
            continue
        if dec.ndim == 3:
            dec = dec[:, :, ::-1]
            png(os.path.join("formats", name + ".cv2.png"), 8, 2, 3, lambda x, y: [int(v) for v in dec[y, x]],
                size=(JPEG_W, JPEG_H))
        else:
            png(os.path.join("formats", name + ".cv2.png"), 8, 0, 1, lambda x, y: [int(dec[y, x])],
                size=(JPEG_W, JPEG_H))


# Files of a few bytes whose headers claim HUGE x HUGE pixels (lavapipe's largest 2-D
# image): each must fail from its header alone, before anything is allocated for it.
HUGE = 16384


def huge_headers():
    tail = bytes(range(16))
    ihdr = struct.pack(">IIBBBBB", HUGE, HUGE, 8, 6, 0, 0, 0)
    write("huge_header.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(tail))
          + chunk(b"IEND", b""))
    sof = struct.pack(">BHHBBBB", 8, HUGE, HUGE, 1, 1, 0x11, 0)
    sos = struct.pack(">BBBBBB", 1, 1, 0x00, 0, 63, 0)  # libjpeg reads the header up to the first scan
    write("huge_header.jpg", b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", 2 + len(sof)) + sof + b"\xff\xda"
          + struct.pack(">H", 2 + len(sos)) + sos + tail + b"\xff\xd9")
    info = struct.pack("<IiiHHIIiiII", 40, HUGE, HUGE, 1, 24, 0, 0, 2835, 2835, 0, 0)
    write("huge_header.bmp", struct.pack("<2sIHHI", b"BM", 14 + len(info) + len(tail), 0, 0, 14 + len(info)) + info
          + tail)
    write("huge_header.tga", struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, HUGE, HUGE, 24, 0) + tail)
    write("huge_header.psd", struct.pack(">4sH6sHIIHH", b"8BPS", 1, bytes(6), 3, HUGE, HUGE, 8, 3)
          + struct.pack(">IIIH", 0, 0, 0, 0) + tail)
    write("huge_header.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (HUGE, HUGE) + tail)


def formats():
    huge_headers()
    bmp("bmp24.bmp", 24)
    bmp("bmp24_topdown.bmp", 24, topdown=True)
    bmp("bmp32.bmp", 32)
    tga("tga_gray.tga", 1, v8)
    tga("tga_rgb.tga", 3, v8)
    tga("tga_rgba.tga", 4, v8, topdown=True)
    tga("tga_gray_rle.tga", 1, run8, rle=True)
    tga("tga_rgb_rle.tga", 3, run8, rle=True)
    tga("tga_rgba_rle.tga", 4, run8, rle=True)
    psd("psd_rgb8.psd", 3, 8, v8)
    psd("psd_rgb8_rle.psd", 3, 8, run8, rle=True)
    psd("psd_rgb16.psd", 3, 16, v16)
    psd("psd_rgba16.psd", 4, 16, psd_rgba16)
    jpegs()


HDR_PIXELS = [(128, 64, 32, 129), (0, 0, 0, 0), (255, 1, 128, 136),
              (200, 100, 50, 120), (16, 32, 64, 140), (1, 2, 3, 128)]


# Adam7 palette files: (bit depth, palette entries), every index of the palette used.
PALETTE_ADAM7 = [(1, 2), (2, 3), (4, 15), (8, 11)]


def check_palettes_with_opencv():
    """The interlaced palette files decode in OpenCV to the colors of the formula."""
    try:
        import cv2
    except ImportError:
        print("make_fixtures.py: no OpenCV (python3-opencv): the Adam7 palette files are not checked")
        return
    for depth, n in PALETTE_ADAM7:
        dec = cv2.imread(os.path.join(HERE, "pal%d_adam7.png" % depth), cv2.IMREAD_COLOR)
        pal = palette(n)
        for y in range(H):
            for x in range(W):
                assert list(dec[y, x][::-1]) == list(pal[(x * 3 + y * 5) % n]), (depth, x, y)
    print("make_fixtures.py: the Adam7 palette files match OpenCV %s's decode" % cv2.__version__)


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
    for depth, n in PALETTE_ADAM7:
        png("pal%d_adam7.png" % depth, depth, 3, 1, lambda x, y, n=n: [(x * 3 + y * 5) % n], extra=plte(n),
            interlace=True)
    check_palettes_with_opencv()

    hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 3\n" + bytes(b for p in HDR_PIXELS for b in p)
    with open(os.path.join(HERE, "hdr_3x2.hdr"), "wb") as f:
        f.write(hdr)
    formats()


if __name__ == "__main__":
    main()
