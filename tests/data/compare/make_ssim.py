#!/usr/bin/python3
"""scikit-image's SSIM of the pairs of tests/data/compare (ssim.txt), the reference
test_compare checks the SSIM metric against. Run once; the values are committed:

    /usr/bin/python3 tests/data/compare/make_ssim.py     (Debian: python3-skimage)

The lumas as ampvk takes them: BT.601 of R, G and B (gray as it is), translucent pixels
blended on white; structural_similarity with gaussian_weights=True, sigma 1.5,
use_sample_covariance=False and the data range of the files' depth.
"""
import os

import cv2
import numpy as np
import skimage
from skimage.metrics import structural_similarity

HERE = os.path.dirname(os.path.abspath(__file__))


def luma(path):
    im = cv2.imread(path, cv2.IMREAD_UNCHANGED).astype(np.float64)
    top = 255.0
    if im.ndim == 2:
        return im
    b, g, r = im[..., 0], im[..., 1], im[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    if im.shape[2] == 4:
        y = top + (y - top) * (im[..., 3] / top)
    return y


lines = [f"# scikit-image {skimage.__version__}'s mean SSIM: pair ssim", "# made by make_ssim.py"]
for pair in ["moved", "changed", "translucent", "noise", "gray"]:
    a, b = luma(os.path.join(HERE, f"{pair}_a.png")), luma(os.path.join(HERE, f"{pair}_b.png"))
    v = structural_similarity(a, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)
    lines.append(f"{pair} {v:.12f}")
open(os.path.join(HERE, "ssim.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
