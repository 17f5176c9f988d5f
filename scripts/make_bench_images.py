#!/usr/bin/python3
"""Writes deterministic photo-like PNG images for benchmarks (PNG save and load, the
tool's folder mode), with OpenCV's cv2.imwrite at its default settings.

Each image is smooth random fields of two scales (low-resolution noise upscaled
with cubic interpolation, like a photo's shading and texture), a few hard-edged
shapes (object borders, anti-aliased by a slight blur), and low-amplitude Gaussian
sensor noise (sigma 2 levels of 8 bits by default, at every level of 16 bits).
Neither flat synthetic art nor pure noise: compressors do on these about what they
do on camera images. Image i of a run is the same in every run (seeded by i and
the options). --source takes the picture from a file instead (upscaled with cubic
interpolation), for instance assets/sample.png with --noise 0.

    /usr/bin/python3 scripts/make_bench_images.py --size 3840x2160 --count 1 --out /tmp/bench
    /usr/bin/python3 scripts/make_bench_images.py --size 1920x1080 --count 200 --out /tmp/folder

Files are named img0000.png, img0001.png ... (--format jpg: img0000.jpg ..., written at
quality 90). Needs only cv2 and numpy
(Debian: python3-opencv).
"""
import argparse
import os
import sys

import cv2
import numpy as np


def smooth_field(rng, w, h, channels, cell):
    """Random values on a grid of `cell`-pixel cells, upscaled to w x h (cubic)."""
    gw, gh = max(2, w // cell + 2), max(2, h // cell + 2)
    grid = rng.standard_normal((gh, gw, channels), dtype=np.float32)
    big = cv2.resize(grid, (gw * cell, gh * cell), interpolation=cv2.INTER_CUBIC)
    big = big.reshape(gh * cell, gw * cell, channels)
    return big[:h, :w]


def shapes(rng, w, h, channels, count):
    """A few filled polygons and circles of random brightness offsets, on zero."""
    layer = np.zeros((h, w, channels), np.float32)
    for _ in range(count):
        color = tuple(float(v) for v in rng.uniform(-50, 50) + rng.uniform(-15, 15, channels))
        if rng.random() < 0.5:
            n = int(rng.integers(3, 7))
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * min(w, h)
            ang = np.sort(rng.uniform(0, 2 * np.pi, n))
            pts = np.stack([cx + r * np.cos(ang), cy + r * np.sin(ang)], axis=1).astype(np.int32)
            cv2.fillPoly(layer, [pts], color)
        else:
            center = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.circle(layer, center, int(rng.uniform(0.02, 0.15) * min(w, h)), color, -1)
    return cv2.GaussianBlur(layer, (3, 3), 0.8).reshape(h, w, channels)


def photo(rng, w, h, channels):
    """A photo-like picture in 8-bit level units (about 0..255), float32."""
    base = rng.uniform(60, 190, channels).astype(np.float32)
    # mostly luminance, shared by the channels as in photos, and some color
    img = base + 40 * smooth_field(rng, w, h, 1, max(8, min(w, h) // 6))
    img += 20 * smooth_field(rng, w, h, channels, max(8, min(w, h) // 8))
    img += 15 * smooth_field(rng, w, h, 1, max(4, min(w, h) // 40))
    img += 5 * smooth_field(rng, w, h, channels, 6)
    img += shapes(rng, w, h, channels, 10)
    return img


def alpha_plane(rng, w, h):
    """A mostly opaque alpha: smooth, with a transparent-ish region or two."""
    a = 230 + 60 * smooth_field(rng, w, h, 1, max(8, min(w, h) // 4))
    return a


def make(i, args, source):
    w, h = args.size
    rng = np.random.default_rng([i, w, h, args.channels, args.bits, 20240611])
    color = min(args.channels, 3)
    if source is not None:
        img = cv2.resize(source, (w, h), interpolation=cv2.INTER_CUBIC).astype(np.float32)
        img = img.reshape(h, w, -1)
        if img.shape[2] > color:
            img = img[:, :, :color]
        elif img.shape[2] < color:
            img = np.repeat(img[:, :, :1], color, axis=2)
    else:
        img = photo(rng, w, h, color)
    if args.channels == 4:
        alpha = source_alpha(source, w, h) if source is not None and source.shape[2] == 4 else alpha_plane(rng, w, h)
        img = np.concatenate([img, alpha.reshape(h, w, 1)], axis=2)
    scale = 257.0 if args.bits == 16 else 1.0
    img *= scale
    if args.noise > 0:
        noise = rng.standard_normal((h, w, color), dtype=np.float32) * np.float32(args.noise * scale)
        img[:, :, :color] += noise
    top = 65535 if args.bits == 16 else 255
    out = np.clip(img + 0.5, 0, top).astype(np.uint16 if args.bits == 16 else np.uint8)
    return out[:, :, 0] if args.channels == 1 else out


def source_alpha(source, w, h):
    return cv2.resize(source[:, :, 3], (w, h), interpolation=cv2.INTER_CUBIC).astype(np.float32)


def size_arg(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WxH")
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"{text!r} has no pixels")
    return w, h


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=size_arg, default=(3840, 2160), help="WxH (default 3840x2160)")
    p.add_argument("--count", type=int, default=1, help="number of images (default 1)")
    p.add_argument("--channels", type=int, choices=(1, 3, 4), default=3, help="3 (RGB) or 4 (RGBA); 1 is gray")
    p.add_argument("--bits", type=int, choices=(8, 16), default=8)
    p.add_argument("--noise", type=float, default=2.0, help="sensor noise sigma in 8-bit levels (default 2)")
    p.add_argument("--source", help="upscale this image instead of making a picture")
    p.add_argument("--format", choices=("png", "jpg"), default="png",
                   help="png (cv2's defaults) or jpg (quality 90, cv2's 4:2:0)")
    p.add_argument("--out", required=True, help="output folder (made if missing)")
    args = p.parse_args()
    source = None
    if args.source:
        source = cv2.imread(args.source, cv2.IMREAD_UNCHANGED)
        if source is None:
            sys.exit(f"make_bench_images: cannot read {args.source}")
        if source.dtype != np.uint8:
            source = (source.astype(np.float32) / 257.0)
        source = source.reshape(source.shape[0], source.shape[1], -1)
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        path = os.path.join(args.out, f"img{i:04d}.{args.format}")
        params = [cv2.IMWRITE_JPEG_QUALITY, 90] if args.format == "jpg" else []
        if not cv2.imwrite(path, make(i, args, source), params):
            sys.exit(f"make_bench_images: cannot write {path}")


if __name__ == "__main__":
    main()
