#!/usr/bin/env python3
"""Writes the WebP fixtures of tests/test_webp.c into this directory (run it from
anywhere with /usr/bin/python3: OpenCV 4.6.0 and numpy; Pillow for the animation).

Made with OpenCV 4.6.0 (Debian 12's python3-opencv), whose imgcodecs links Debian's
libwebp 1.2.4, the library ampvk decodes and encodes with. Every picture follows a
formula that tests/test_webp.c repeats in C (x column, y row, c channel R, G, B):

    noise(x, y, c) = ((((x * 73856093) ^ (y * 19349663) ^ (c * 83492791)) mod 2^32)
                      * 2654435761 mod 2^32) >> 28                      (0..15)
    rgb(x, y, c)   = min(255, 20 + 3x + 2y + 50c + noise(x, y, c))
    alpha(x, y)    = 0 where (x + y) % 11 == 0, else min(255, 4x + 2y + 9)
    gray(x, y)     = rgb(x, y, 1)
    palette(x, y, c): entry (x / 5 + y / 3) % 5 of five colors, PALETTE below

Files (cv2.imwrite's own choice unless said; OpenCV 4.6 writes lossless without
IMWRITE_WEBP_QUALITY, with WebPEncodeLosslessBGR(A): libwebp's quality 70, method 4,
the colors of fully transparent pixels left to the encoder (exact = 0); with it,
WebPEncodeBGR(A) at that quality):

    lossless_rgb.webp        64x48 RGB, lossless (the default)
    lossless_rgba.webp       64x48 RGBA, lossless
    lossless_gray.webp       64x48 gray (cv2 writes it as RGB), lossless
    lossless_palette.webp    64x48 of five colors (a color-indexing transform), lossless
    lossy_rgb.webp           64x48 RGB, quality 90 (VP8)
    lossy_rgb_13x7.webp      13x7 RGB, quality 75 (partial macroblocks)
    lossy_rgba.webp          64x48 RGBA, quality 80 (VP8X with ALPH and VP8)
    animated.webp            3 frames of 16x8 (Pillow; cv2.imread refuses it)

and for each still file NAME.webp, NAME.cv2.png: what cv2.imread(IMREAD_UNCHANGED)
decodes it to, written by cv2 as PNG (RGB or RGBA on disk; lossless). Prints the
versions and what cv2.imread does with animated.webp.
"""
import os

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 64, 48
PALETTE = [(250, 10, 10), (10, 200, 30), (20, 40, 230), (255, 255, 255), (0, 0, 0)]


def noise(x, y, c):
    h = ((x * 73856093) ^ (y * 19349663) ^ (c * 83492791)) & 0xFFFFFFFF
    return ((h * 2654435761) & 0xFFFFFFFF) >> 28


def rgb(w, h):
    a = np.zeros((h, w, 3), np.uint8)
    for y in range(h):
        for x in range(w):
            for c in range(3):
                a[y, x, c] = min(255, 20 + 3 * x + 2 * y + 50 * c + noise(x, y, c))
    return a


def rgba(w, h):
    a = np.zeros((h, w, 4), np.uint8)
    a[:, :, :3] = rgb(w, h)
    for y in range(h):
        for x in range(w):
            a[y, x, 3] = 0 if (x + y) % 11 == 0 else min(255, 4 * x + 2 * y + 9)
    return a


def palette(w, h):
    a = np.zeros((h, w, 3), np.uint8)
    for y in range(h):
        for x in range(w):
            a[y, x] = PALETTE[(x // 5 + y // 3) % 5]
    return a


def bgr(a):
    """RGB(A) to OpenCV's BGR(A)."""
    return a[:, :, [2, 1, 0, 3][: a.shape[2]]] if a.ndim == 3 else a


def write(name, image, params=()):
    path = os.path.join(HERE, name + ".webp")
    assert cv2.imwrite(path, bgr(image), list(params))
    decoded = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    assert cv2.imwrite(os.path.join(HERE, name + ".cv2.png"), decoded)
    print("%-22s %5d bytes, cv2.imread: %s" % (name + ".webp", os.path.getsize(path), decoded.shape))


def animated():
    from PIL import Image  # Pillow: cv2 4.6 writes no animations
    frames = [Image.fromarray(rgb(16, 8) // (i + 1)) for i in range(3)]
    path = os.path.join(HERE, "animated.webp")
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0, lossless=True)
    print("animated.webp          %5d bytes, cv2.imread: %s" % (
        os.path.getsize(path), None if cv2.imread(path, cv2.IMREAD_UNCHANGED) is None else "an image"))


def main():
    from PIL import features
    print("OpenCV", cv2.__version__, "libwebp", features.version("webp"))
    write("lossless_rgb", rgb(W, H))
    write("lossless_rgba", rgba(W, H))
    write("lossless_gray", rgb(W, H)[:, :, 1].copy())
    write("lossless_palette", palette(W, H))
    write("lossy_rgb", rgb(W, H), (cv2.IMWRITE_WEBP_QUALITY, 90))
    write("lossy_rgb_13x7", rgb(13, 7), (cv2.IMWRITE_WEBP_QUALITY, 75))
    write("lossy_rgba", rgba(W, H), (cv2.IMWRITE_WEBP_QUALITY, 80))
    animated()


if __name__ == "__main__":
    main()
