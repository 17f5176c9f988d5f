#!/usr/bin/python3
"""The peer of `ampvk bench --filters`: the same filters in OpenCV on this machine's
CPUs (all cores), on a 3840x2160 RGBA8 image (equalize on its gray version), as
milliseconds per call; run both in one session and compare ratios."""
import json
import time

import cv2
import numpy as np

W, H = 3840, 2160
rng = np.random.default_rng(1)
rgba = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)
gray = np.ascontiguousarray(rgba[:, :, 0])
SEPIA = np.array([[0.393, 0.769, 0.189, 0], [0.349, 0.686, 0.168, 0], [0.272, 0.534, 0.131, 0], [0, 0, 0, 1]],
                 np.float32)
GAMMA = np.array([round(255 * (k / 255) ** (1 / 2.2)) for k in range(256)], np.uint8)
SRGB = np.array([round(255 * ((c / 12.92) if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4))
                 for c in (k / 255 for k in range(256))], np.uint8)
LINEAR = np.array([round(255 * ((12.92 * c) if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055))
                   for c in (k / 255 for k in range(256))], np.uint8)


def sharpen(x):
    f = x.astype(np.float32)
    return cv2.convertScaleAbs(cv2.addWeighted(f, 2.0, cv2.GaussianBlur(f, (7, 7), 1.0), -1.0, 0))


def bilateral(x):  # OpenCV's bilateral takes 1 or 3 channels: the colors, alpha copied
    out = cv2.bilateralFilter(np.ascontiguousarray(x[:, :, :3]), 9, 50, 5)
    return np.dstack([out, x[:, :, 3]])


k5 = np.ones((5, 5), np.uint8)
FILTERS = [
    ("gaussian:radius=2", lambda: cv2.GaussianBlur(rgba, (5, 5), 0)),
    ("gaussian:sigma=5", lambda: cv2.GaussianBlur(rgba, (0, 0), 5)),
    ("box:radius=2", lambda: cv2.blur(rgba, (5, 5))),
    ("median:radius=2", lambda: cv2.medianBlur(rgba, 5)),
    ("sobel", lambda: cv2.magnitude(cv2.Sobel(rgba, cv2.CV_32F, 1, 0), cv2.Sobel(rgba, cv2.CV_32F, 0, 1))),
    ("sharpen:amount=1,sigma=1", lambda: sharpen(rgba)),
    ("bilateral:diameter=9,sigma_color=50,sigma_space=5", lambda: bilateral(rgba)),
    ("erode:radius=2", lambda: cv2.erode(rgba, k5)),
    ("dilate:radius=2", lambda: cv2.dilate(rgba, k5)),
    ("grayscale", lambda: cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY)),
    ("sepia", lambda: cv2.transform(rgba, SEPIA)),
    ("invert", lambda: cv2.bitwise_not(rgba)),
    ("gamma:gamma=2.2", lambda: cv2.LUT(rgba, GAMMA)),
    ("brightness_contrast:contrast=1.2", lambda: cv2.convertScaleAbs(rgba, alpha=1.2)),
    ("threshold:threshold=0.5", lambda: cv2.threshold(rgba, 127, 255, cv2.THRESH_BINARY)),
    ("srgb_to_linear", lambda: cv2.LUT(rgba, SRGB)),
    ("linear_to_srgb", lambda: cv2.LUT(rgba, LINEAR)),
    ("resize:width=1920,height=1080", lambda: cv2.resize(rgba, (1920, 1080))),
    ("resize:width=1920,height=1080,interpolation=nearest",
     lambda: cv2.resize(rgba, (1920, 1080), interpolation=cv2.INTER_NEAREST)),
    ("resize:width=1920,height=1080,interpolation=area",
     lambda: cv2.resize(rgba, (1920, 1080), interpolation=cv2.INTER_AREA)),
    ("resize:width=1920,height=1080,interpolation=cubic",
     lambda: cv2.resize(rgba, (1920, 1080), interpolation=cv2.INTER_CUBIC)),
    ("resize:width=1920,height=1080,interpolation=lanczos4",
     lambda: cv2.resize(rgba, (1920, 1080), interpolation=cv2.INTER_LANCZOS4)),
    ("equalize", lambda: cv2.equalizeHist(gray)),
    ("gaussian:radius=2 grayscale invert",
     lambda: cv2.bitwise_not(cv2.cvtColor(cv2.GaussianBlur(rgba, (5, 5), 0), cv2.COLOR_RGBA2GRAY))),
]


def per_call(fn):
    fn()
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    reps = max(2, min(50, int(0.5 / one) if one > 0 else 50))
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


copy_s = per_call(lambda: rgba.copy())
print(json.dumps({"peer": "cv2", "threads": cv2.getNumThreads(), "filter": "copy", "ms": round(copy_s * 1e3, 4)}))
for name, fn in FILTERS:
    print(json.dumps({"peer": "cv2", "filter": name, "ms": round(per_call(fn) * 1e3, 4)}))
