#!/usr/bin/python3
"""Makes tests/data/compare/flip/: image pairs and NVIDIA FLIP's values for them, the
reference that ampvk's FLIP metric is checked against.

    /usr/bin/python3 scripts/make_flip.py --flip PATH_TO_NVIDIA_FLIP_TOOL

PATH_TO_NVIDIA_FLIP_TOOL is the C++ command-line tool of NVIDIA's FLIP
(https://github.com/NVlabs/flip, src/cpp/tool, e.g. built with
`g++ -std=c++17 -O2 -I.. FLIP-tool.cpp -o flip` in that folder).  The committed
values were made with FLIP v1.6 (commit 1eb247c, pyproject version 1.6.0.1).
Needs numpy and OpenCV with OpenEXR support (Debian: python3-opencv); the script sets
OPENCV_IO_ENABLE_OPENEXR=1 itself.

What it writes into tests/data/compare/flip/ (older files there are replaced):
  ldr_<what>_ref.png / ldr_<what>_test.png   8-bit PNG pairs for LDR-FLIP (sRGB)
  hdr_<what>_ref.pfm / hdr_<what>_test.pfm   linear float RGB pairs for HDR-FLIP, as
                                             PFM (little-endian, rows bottom-to-top);
                                             NVIDIA's tool gets them as float32 EXR
                                             written into a temporary folder
  ldr_<what>_flip.png                        NVIDIA's grayscale FLIP error map (-nm)
                                             for a few LDR pairs
  flip.txt                                   one line per case: files, settings and the
                                             values the tool printed (see its header)

The images are made with numpy (fixed seed) and cv2 drawing, so a rerun with the same
numpy/OpenCV gives the same files.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")
import cv2  # noqa: E402  (must come after the environment variable)
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "tests", "data", "compare", "flip"))
SEED = 20250611
DEFAULT_PPD = "default"   # the tool's own default, 0.7 m from a 0.7 m wide 4K display

# ---------------------------------------------------------------- image makers (LDR)


def smooth_photo(rng, w, h):
    """A photo-like 8-bit BGR image: soft gradients, blurred blobs, a few soft shapes."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.zeros((h, w, 3), np.float32)
    img[..., 0] = 0.55 + 0.35 * yy / h          # blue: sky-like vertical gradient
    img[..., 1] = 0.35 + 0.25 * xx / w
    img[..., 2] = 0.25 + 0.30 * (1 - yy / h)
    coarse = rng.uniform(-0.25, 0.25, (max(2, h // 12), max(2, w // 12), 3)).astype(np.float32)
    img += cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    for _ in range(5):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        ax = (int(rng.integers(w // 10, w // 4)), int(rng.integers(h // 10, h // 4)))
        col = tuple(float(v) for v in rng.uniform(0.05, 0.95, 3))
        cv2.ellipse(img, c, ax, float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.5)
    return np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)


def aa_lines(rng, w, h, dx):
    """Anti-aliased lines of several angles and colours on a dark ground, moved dx px."""
    img = np.full((h, w, 3), 24, np.uint8)
    s = 4  # cv2 sub-pixel bits: coordinates in 1/16 px
    for i in range(9):
        x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
        x1, y1 = rng.uniform(0, w), rng.uniform(0, h)
        col = tuple(int(v) for v in rng.integers(120, 256, 3))
        p0 = (int(round((x0 + dx) * 16)), int(round(y0 * 16)))
        p1 = (int(round((x1 + dx) * 16)), int(round(y1 * 16)))
        cv2.line(img, p0, p1, col, 1 + (i % 2), cv2.LINE_AA, s)
    return img


def texture(rng, w, h):
    """Checkers, text and circles: lots of edges for the blur case."""
    yy, xx = np.mgrid[0:h, 0:w]
    chk = (((xx // 8) + (yy // 8)) % 2).astype(np.uint8)
    img = np.dstack([60 + 140 * chk, 90 + 100 * chk, 200 - 120 * chk]).astype(np.uint8)
    cv2.putText(img, "ampvk", (6, h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (250, 250, 250), 2,
                cv2.LINE_AA)
    cv2.putText(img, "FLIP 1.6", (10, h - 12), cv2.FONT_HERSHEY_PLAIN, 1.2, (10, 20, 40), 1,
                cv2.LINE_AA)
    for _ in range(4):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
        cv2.circle(img, c, int(rng.integers(4, 14)), col, 2, cv2.LINE_AA)
    return img


def make_ldr(rng):
    """Returns [(what, ref, test)] with uint8 arrays (BGR, BGRA or gray, cv2 order)."""
    pairs = []

    # Photo-like smooth image vs. the same with Gaussian noise (sigma 6 levels).
    ref = smooth_photo(rng, 96, 72)
    noise = rng.normal(0, 6, ref.shape)
    pairs.append(("noise", ref, np.clip(ref + noise + 0.5, 0, 255).astype(np.uint8)))

    # Anti-aliased lines, the test drawn one pixel to the right.
    state = rng.bit_generator.state
    ref = aa_lines(rng, 80, 60, 0.0)
    rng.bit_generator.state = state
    pairs.append(("lines", ref, aa_lines(rng, 80, 60, 1.0)))

    # Hue change: the hue of a soft-edged disc rotated by 40 degrees.
    ref = smooth_photo(rng, 64, 48)
    hsv = cv2.cvtColor(ref, cv2.COLOR_BGR2HSV_FULL).astype(np.int32)
    mask = np.zeros(ref.shape[:2], np.uint8)
    cv2.circle(mask, (40, 22), 14, 255, -1, cv2.LINE_AA)
    hsv2 = hsv.copy()
    hsv2[..., 0] = (hsv[..., 0] + 28) % 256          # 28/256 of a turn, ~40 degrees
    hsv2[..., 1] = np.maximum(hsv[..., 1], 110)      # enough saturation to show it
    rot = cv2.cvtColor(hsv2.astype(np.uint8), cv2.COLOR_HSV2BGR_FULL)
    m = (mask.astype(np.float32) / 255)[..., None]
    test = np.clip(ref * (1 - m) + rot * m + 0.5, 0, 255).astype(np.uint8)
    pairs.append(("hue", ref, test))

    # Blurred copy (Gaussian, sigma 1.2).
    ref = texture(rng, 128, 96)
    pairs.append(("blur", ref, cv2.GaussianBlur(ref, (0, 0), 1.2)))

    # Brightness change: x * 1.12 + 8, clipped.
    ref = smooth_photo(rng, 72, 54)
    pairs.append(("bright", ref, np.clip(ref * 1.12 + 8 + 0.5, 0, 255).astype(np.uint8)))

    # RGBA: alpha varies (ramp in the reference, noise in the test); the RGB differs by a
    # drawn rectangle.  NVIDIA's tool drops alpha, so only the rectangle counts.
    rgb = smooth_photo(rng, 60, 45)
    a_ref = np.tile(np.linspace(0, 255, 60), (45, 1)).round().astype(np.uint8)
    a_test = rng.integers(0, 256, (45, 60)).astype(np.uint8)
    rgb_t = rgb.copy()
    cv2.rectangle(rgb_t, (12, 10), (30, 28), (40, 200, 230), -1, cv2.LINE_AA)
    pairs.append(("rgba", np.dstack([rgb, a_ref]), np.dstack([rgb_t, a_test])))

    # Gray (1 channel): a gamma change plus an anti-aliased circle.
    g = cv2.cvtColor(smooth_photo(rng, 56, 42), cv2.COLOR_BGR2GRAY)
    gt = np.clip(255 * (g / 255.0) ** 0.85 + 0.5, 0, 255).astype(np.uint8)
    cv2.circle(gt, (20, 25), 8, 230, 2, cv2.LINE_AA)
    pairs.append(("gray", g, gt))

    # Identical images: FLIP is exactly 0.
    ref = smooth_photo(rng, 40, 30)
    pairs.append(("same", ref, ref.copy()))
    return pairs


# ---------------------------------------------------------------- image makers (HDR)


def dim_scene(rng, w, h, lo, hi):
    """Linear RGB float32 (RGB order), smooth, values in about [lo, hi]."""
    coarse = rng.uniform(0, 1, (max(2, h // 10), max(2, w // 10), 3)).astype(np.float32)
    f = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    f = cv2.GaussianBlur(f, (0, 0), 2.0)
    f = np.clip(f, 0, 1)
    return (lo + (hi - lo) * f).astype(np.float32)


def light(w, h, cx, cy, radius, peak, colour):
    """A bright disc with a soft glow, linear RGB float32."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
    core = np.clip(radius + 0.5 - d, 0, 1)              # anti-aliased disc
    glow = np.exp(-(d / (2.5 * radius)) ** 2) * 0.15
    v = (core + glow) * peak
    return (v[..., None] * np.asarray(colour, np.float32)).astype(np.float32)


def make_hdr(rng):
    """Returns [(what, ref, test)] with float32 RGB arrays (values >= 0)."""
    w, h = 56, 42
    pairs = []

    # A bright light source (~40) over a dim scene (0.02..0.4); in the test the light is
    # dimmer (x0.7), a little larger and one pixel lower, and the scene slightly warmer.
    scene = dim_scene(rng, w, h, 0.02, 0.4)
    ref = scene + light(w, h, 38.0, 12.0, 3.5, 40.0, (1.0, 0.95, 0.85))
    test = scene * np.float32([1.05, 1.0, 0.95]) + light(w, h, 38.0, 13.0, 4.0, 28.0,
                                                        (1.0, 0.95, 0.85))
    pairs.append(("light", ref, test))

    # Smooth scene 0.05..8 vs. the same with multiplicative Gaussian noise (10 %).
    ref = dim_scene(rng, w, h, 0.05, 8.0)
    test = ref * np.clip(1 + rng.normal(0, 0.10, ref.shape), 0.5, 1.5)
    pairs.append(("noise", ref, test.astype(np.float32)))

    # A vertical edge between a dim (0.05..0.3) and a bright (~5..20) region, with an
    # anti-aliased slant; the test's edge is one pixel to the right.
    base = dim_scene(rng, w, h, 0.05, 0.3)
    bright = dim_scene(rng, w, h, 5.0, 20.0)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)

    def edge(shift):
        pos = 24.0 + 0.25 * yy + shift
        m = np.clip(xx - pos + 0.5, 0, 1)[..., None]
        return (base * (1 - m) + bright * m).astype(np.float32)

    pairs.append(("edge", edge(0.0), edge(1.0)))
    return pairs


# ---------------------------------------------------------------- file writers


def write_pfm(path, rgb):
    """PFM colour ("PF"), scale -1.0 (little-endian), rows from the bottom up."""
    h, w, _ = rgb.shape
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(np.ascontiguousarray(rgb[::-1].astype("<f4")).tobytes())


def read_pfm(path):
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"PF\n(\d+) (\d+)\n(-?[0-9.]+)\n", data)
    w, h, scale = int(m.group(1)), int(m.group(2)), float(m.group(3))
    dt = "<f4" if scale < 0 else ">f4"
    return np.frombuffer(data[m.end():], dt).reshape(h, w, 3)[::-1].astype(np.float32)


def write_exr(path, rgb):
    ok = cv2.imwrite(path, np.ascontiguousarray(rgb[..., ::-1]),
                     [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_FLOAT])
    if not ok:
        sys.exit("cv2 could not write %s (OpenEXR support?)" % path)
    back = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if back is None or back.dtype != np.float32 or not np.array_equal(back[..., ::-1], rgb):
        sys.exit("EXR %s does not read back equal to its data" % path)


# ---------------------------------------------------------------- running the tool

FLOAT = r"(-?[0-9]+\.[0-9]+)"
FIELDS = [("mean", "Mean"), ("median", "Weighted median"), ("q1", "1st weighted quartile"),
          ("q3", "3rd weighted quartile"), ("min", "Min"), ("max", "Max")]


def run_flip(tool, ref, test, ppd, extra, workdir, errmap=None):
    """Runs NVIDIA's tool in workdir; returns the printed values (as printed, strings)
    and for HDR the exposures it used, read with 6 decimals from the names of the
    per-exposure LDR-FLIP maps (-slf), since the printout has only 4."""
    hdr = ref.endswith(".exr")
    for f in glob.glob(os.path.join(workdir, "*.png")):
        os.remove(f)
    cmd = [tool, "-r", ref, "-t", test, "-d", workdir]
    if ppd != DEFAULT_PPD:
        cmd += ["-ppd", ppd]
    cmd += extra
    if errmap:
        cmd += ["-nm", "-b", "errmap"]
    else:
        cmd += ["-nerm"]
    if hdr:
        cmd += ["-nexm", "-slf", "-nm"]
    p = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    out = p.stdout
    if p.returncode != 0:
        sys.exit("FLIP failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), out, p.stderr))
    vals = {}
    for key, label in FIELDS:
        m = re.search(r"^\s*" + re.escape(label) + r": " + FLOAT + r"\s*$", out, re.M)
        if not m:
            sys.exit("no '%s' in FLIP's output:\n%s" % (label, out))
        vals[key] = m.group(1)
    m = re.search(r"Pixels per degree: (\d+)", out)
    vals["ppd_printed"] = m.group(1)
    if hdr:
        tm = re.search(r"Assumed tone mapper: (\w+)", out).group(1).lower()
        start4 = re.search(r"Start exposure: " + FLOAT, out).group(1)
        stop4 = re.search(r"Stop exposure: " + FLOAT, out).group(1)
        n = int(re.search(r"Number of exposures: (\d+)", out).group(1))
        exps = {}
        for f in os.listdir(workdir):
            m = re.search(r"\.ldr\.%s\.(\d{3})\.([mp])([0-9]+\.[0-9]+)\.png$" % tm, f)
            if m:
                exps[int(m.group(1))] = ("-" if m.group(2) == "m" else "") + m.group(3)
        if sorted(exps) != list(range(n)):
            sys.exit("expected %d per-exposure maps, found %s" % (n, sorted(exps)))
        start, stop = exps[0], exps[n - 1]
        for six, four in ((start, start4), (stop, stop4)):
            if abs(float(six) - float(four)) > 0.5e-4 + 1e-6:
                sys.exit("exposure %s (file name) disagrees with %s (printed)" % (six, four))
        vals.update(tm=tm, start=start, stop=stop, n=str(n), start4=start4, stop4=stop4)
    if errmap:
        src = os.path.join(workdir, "errmap.png")
        shutil.copyfile(src, errmap)
    return vals, out


# ---------------------------------------------------------------- main

HEADER = """\
# FLIP reference values for ampvk's FLIP metric.
# Made by scripts/make_flip.py with NVIDIA's FLIP v1.6 (github.com/NVlabs/flip,
# commit 1eb247c, pyproject version 1.6.0.1), its C++ command-line tool.
# The images are in this folder: ldr_* are 8-bit PNG (LDR-FLIP: sRGB decoded to
# linear; the tool loads 3 channels, so alpha is dropped and gray is replicated);
# hdr_* are linear float RGB PFM files (little-endian, rows bottom-to-top), given to
# the tool as float32 EXR with the same values (HDR-FLIP).
# Columns:
#   name ref test mode ppd tonemapper start_exp stop_exp num_exp mean wmedian wq1 wq3 min max
#   mode: ldr | hdr.  ppd: pixels per degree.  67.020645 is the tool's default (no -ppd):
#     FLIP::calculatePPD(0.7f, 3840.0f, 0.7f) = 0.7f * (3840.0f / 0.7f) * (PI / 180.0f),
#     in float 67.0206451 (0.7 m from a 0.7 m wide 4K display); others were given with -ppd.
#   tonemapper: aces | hable | reinhard ('-' for ldr).
#   start_exp stop_exp num_exp: the exposures the tool used ('-' for ldr); when not given
#     on the command line (see 'Options given' below) the tool computes them from the
#     reference image: start = log2(xMax / max luminance), stop = log2(xMax / median
#     luminance), with the median the element at index count/2 of the luminances,
#     num = max(2, ceil(stop - start)).  The tool prints them with 4 decimals; the 6
#     decimals here come from the names of its per-exposure maps (-slf).
#   mean wmedian wq1 wq3 min max: the mean of the FLIP error map, its weighted median and
#     weighted 1st/3rd quartiles (the tool's histogram-based pooling), min and max,
#     exactly as the tool printed them (fixed, 6 decimals, so +-5e-7).
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flip", required=True, help="path to NVIDIA's FLIP command-line tool")
    args = ap.parse_args()
    tool = os.path.abspath(args.flip)
    if not os.access(tool, os.X_OK):
        sys.exit("not an executable: %s" % args.flip)
    ver = subprocess.run([tool, "-h"], capture_output=True, text=True).stdout.splitlines()
    if not ver or ver[0].strip() != "FLIP v1.6.":
        print("warning: the tool says %r, the committed values are from FLIP v1.6"
              % (ver[0] if ver else ""), file=sys.stderr)

    rng = np.random.default_rng(SEED)
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    tmp = tempfile.mkdtemp(prefix="make_flip_")
    work = os.path.join(tmp, "work")
    os.makedirs(work)

    cases = []   # (name, ref file, test file, ppd, extra args, error map file or None)
    for what, ref, test in make_ldr(rng):
        rf, tf = "ldr_%s_ref.png" % what, "ldr_%s_test.png" % what
        cv2.imwrite(os.path.join(OUT, rf), ref, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        cv2.imwrite(os.path.join(OUT, tf), test, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        emap = "ldr_%s_flip.png" % what if what in ("lines", "hue") else None
        cases.append(("ldr_" + what, rf, tf, DEFAULT_PPD, [], emap))
        if what == "lines":
            cases.append(("ldr_lines_ppd30", rf, tf, "30", [], None))

    for what, ref, test in make_hdr(rng):
        rf, tf = "hdr_%s_ref.pfm" % what, "hdr_%s_test.pfm" % what
        for fn, img in ((rf, ref), (tf, test)):
            write_pfm(os.path.join(OUT, fn), img)
            if not np.array_equal(read_pfm(os.path.join(OUT, fn)), img):
                sys.exit("PFM %s does not read back" % fn)
            write_exr(os.path.join(tmp, fn[:-4] + ".exr"), img)
        cases.append(("hdr_" + what, rf, tf, DEFAULT_PPD, [], None))
        if what == "light":
            cases.append(("hdr_light_exp", rf, tf, DEFAULT_PPD,
                          ["-cstart", "-2", "-cstop", "3", "-n", "4"], None))
        if what == "noise":
            cases.append(("hdr_noise_hable", rf, tf, DEFAULT_PPD, ["-tm", "hable"], None))
        if what == "edge":
            cases.append(("hdr_edge_reinhard", rf, tf, DEFAULT_PPD, ["-tm", "reinhard"], None))

    rows, notes = [], []
    for name, rf, tf, ppd, extra, emap in cases:
        hdr = rf.endswith(".pfm")
        rp = os.path.join(tmp, rf[:-4] + ".exr") if hdr else os.path.join(OUT, rf)
        tp = os.path.join(tmp, tf[:-4] + ".exr") if hdr else os.path.join(OUT, tf)
        v, out = run_flip(tool, rp, tp, ppd, extra, work,
                          os.path.join(OUT, emap) if emap else None)
        ppd_col = "67.020645" if ppd == DEFAULT_PPD else "%.6f" % float(ppd)
        if hdr:
            cols = [name, rf, tf, "hdr", ppd_col, v["tm"], v["start"], v["stop"], v["n"]]
        else:
            cols = [name, rf, tf, "ldr", ppd_col, "-", "-", "-", "-"]
        cols += [v[k] for k, _ in FIELDS]
        rows.append(cols)
        if extra:
            notes.append("#   %s: %s" % (name, " ".join(extra)))
        if emap:
            notes.append("#   %s: error map %s" % (name, emap))
        print(" ".join(cols))

    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    text = HEADER
    text += "# Options given to the tool besides -r/-t (and -ppd when not the default):\n"
    text += "\n".join(n for n in notes if "error map" not in n) + "\n"
    text += ("# Error maps: NVIDIA's grayscale FLIP error map (-nm): 8-bit RGB PNG, all three\n"
             "# channels equal, value = (unsigned char)(255 * clamp(flip, 0, 1) + 0.5):\n")
    text += "\n".join(n for n in notes if "error map" in n) + "\n"
    for r in rows:
        text += " ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip() + "\n"
    with open(os.path.join(OUT, "flip.txt"), "w") as f:
        f.write(text)
    shutil.rmtree(tmp)
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print("wrote %d cases, %d files, %d bytes into %s" % (len(rows), len(os.listdir(OUT)),
                                                         total, OUT))


if __name__ == "__main__":
    main()
