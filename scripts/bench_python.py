"""The Python package's costs, beside the same work in the same process.

    PYTHONPATH=build/python python3 scripts/bench_python.py [--size 1920x1080] [--repeat 20]
        [--device SPEC] [--tool build/demos/ampvk] [--json]

Prints, each the median of --repeat runs after a warm-up:
  overhead   the package's own time per call of ampvk.filter on a 16 x 16 image and of
             Texture.filter (and closing its result): the call with the C functions it
             runs (upload, filters, download) answered at once, so that only the
             package's Python work is timed (us, median of 9 batches); and, noisier,
             the call minus the same C calls made through the same cffi module with the
             textures and filters ready, call by call in pairs
  gaussian   ampvk.filter(RGB uint8 image, "gaussian:sigma=2"): upload, filter,
             download, beside cv2.GaussianBlur on every core (cv2.setNumThreads)
  chain5     five filters (gaussian, box, dilate, erode, invert) as a Texture chain of
             five calls (on the device: after the upload, before the download; and
             whole) and as one call of the five (fused where the library fuses), beside
             cv2 doing the same five
  tool       with --tool: `ampvk filter --timings` on the same image as a PNG, its upload
             + filter + download beside ampvk.filter's time
Ratios > 1 mean ampvk is faster (cv2 / ampvk), or for the tool, ampvk.filter's time
over the tool's (the issue asks at most 1.2 on lavapipe).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import ampvk
from ampvk._core import accelerator, ffi, lib

try:
    import cv2
except ImportError:  # the cv2 columns are left out
    cv2 = None

CHAIN5 = ["gaussian:sigma=2", "box:radius=3", "dilate:radius=1", "erode:radius=1", "invert"]


def median_time(fn, repeat, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def paired(fn, raw, n, warmup=10):
    """The median of fn's time minus raw's over n pairs of calls, and raw's median."""
    for _ in range(warmup):
        fn()
        raw()
    diffs, raws = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        raw()
        t2 = time.perf_counter()
        diffs.append((t1 - t0) - (t2 - t1))
        raws.append(t2 - t1)
    return statistics.median(diffs), statistics.median(raws)


class _Answered:
    """Stands in for the cffi library inside the package: the functions named return
    AMP_OK at once, every other name is the library's."""

    def __init__(self, names):
        for name in names:
            setattr(self, name, lambda *args: 0)

    def __getattr__(self, name):
        return getattr(lib, name)


def own_time(fn, names, n, batches=9):
    """fn's time per call with the package's calls of `names` answered at once: the
    package's own cost (the median of batches of n calls)."""
    import ampvk.filters
    import ampvk.images
    modules = (ampvk.filters, ampvk.images)
    saved = [m.lib for m in modules]
    stand_in = _Answered(names)
    try:
        for m in modules:
            m.lib = stand_in
        times = []
        for _ in range(batches + 1):
            t = time.perf_counter()
            for _ in range(n):
                fn()
            times.append((time.perf_counter() - t) / n)
        return statistics.median(times[1:])
    finally:
        for m, old in zip(modules, saved):
            m.lib = old


def raw_filter_calls(img, chain, view):
    """The C calls ampvk.filter makes, through the same cffi module, with its textures
    and parsed chain made beforehand: a function that runs them once."""
    h, w, c = img.shape
    filters = ffi.new("amp_image_filter[]", 64)
    count = ffi.new("int *")
    lib.amp_image_filter_parse_chain(chain.encode(), filters, 64, count)
    desc = ffi.new("amp_texture_desc *")
    desc.extent.rank = 2
    desc.extent.dims[0], desc.extent.dims[1] = h, w
    desc.type = lib.amp_type_from_name(b"unorm_3" if c == 3 else b"unorm_4")
    desc.bits_per_scalar_element = 8
    src = lib.amp_texture_create(view, desc)
    dst = lib.amp_texture_create(view, desc)
    out = np.empty_like(img)
    src_buf, out_buf, n = ffi.from_buffer(img), ffi.from_buffer(out, require_writable=True), img.nbytes

    def run():
        lib.amp_texture_copy_from_host(src, ffi.NULL, src_buf, n)
        lib.amp_image_filter_chain(filters, count[0], src, dst)
        lib.amp_texture_copy_to_host(dst, ffi.NULL, out_buf, n)

    def texture_filter():  # Texture.filter takes a kept texture: the chain is its only C call
        lib.amp_image_filter_chain(filters, count[0], src, dst)

    return run, texture_filter


def cv2_five(img):
    a = cv2.GaussianBlur(img, (0, 0), 2)
    a = cv2.blur(a, (7, 7))
    k = np.ones((3, 3), np.uint8)
    a = cv2.dilate(a, k)
    a = cv2.erode(a, k)
    return cv2.bitwise_not(a)


def tool_times(tool, img, device, runs):
    """upload + filter + download of `ampvk filter --timings` on img as a PNG (ms), the
    median of runs processes, as ampvk.filter's figure is a median."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.png"), os.path.join(d, "out.png")
        ampvk.save(src, img)
        cmd = [tool, "filter", "--timings", "--quiet", src, dst, "gaussian:sigma=2"]
        if device is not None:
            cmd[2:2] = ["--device", str(device)]
        totals = []
        for _ in range(runs):
            text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            m = re.search(r"upload ([\d.]+) ms, filter ([\d.]+) ms, download ([\d.]+) ms", text)
            totals.append(sum(float(v) for v in m.groups()))
        return statistics.median(totals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1920x1080", help="WxH of the image (default 1920x1080)")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--device", default=None)
    ap.add_argument("--tool", default=None, help="the ampvk tool, for its filter time")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.lower().split("x"))
    device = None if a.device is None else (int(a.device) if a.device.isdigit() else a.device)
    acc = accelerator(device)
    # CPU devices switch a small image's filters to other passes after runs that bring
    # half a megapixel (ampvk/filter.h): warm up past that, so no run times a compile
    warm = 3 + (1 << 19) // (w * h)
    rng = np.random.default_rng(1)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    small = img[:16, :16].copy()
    res = {"device": acc.description, "size": f"{w}x{h}", "repeat": a.repeat}

    # overhead: the same work with and without the package around it
    run, texture_filter = raw_filter_calls(small, "gaussian:sigma=2", acc.view)
    n = max(a.repeat, 200)
    # call by call in pairs, so that both see the same machine: the median difference
    py_call = lambda: ampvk.filter(small, "gaussian:sigma=2", device=acc)  # noqa: E731
    t = ampvk.Texture(small, device=acc)
    tex_call = lambda: t.filter("gaussian:sigma=2").close()  # noqa: E731
    over, raw_times = paired(py_call, run, n)
    res["overhead_filter_us"] = over * 1e6
    res["raw_filter_small_us"] = raw_times * 1e6
    res["overhead_texture_filter_us"] = paired(tex_call, texture_filter, n)[0] * 1e6
    calls = ("amp_texture_copy_from_host", "amp_image_filter_chain", "amp_texture_copy_to_host")
    res["own_filter_us"] = own_time(py_call, calls, 1000) * 1e6
    res["own_texture_filter_us"] = own_time(tex_call, calls, 1000) * 1e6

    # gaussian of the whole image
    if cv2 is not None:
        cv2.setNumThreads(os.cpu_count())
        res["cv2_threads"] = cv2.getNumThreads()
    g = median_time(lambda: ampvk.filter(img, "gaussian:sigma=2", device=acc), a.repeat, warm)
    res["ampvk_filter_ms"] = g * 1e3
    if cv2 is not None:
        c = median_time(lambda: cv2.GaussianBlur(img, (0, 0), 2), a.repeat)
        res["cv2_gaussian_ms"] = c * 1e3
        res["gaussian_ratio"] = c / g
        assert np.array_equal(ampvk.filter(img, "gaussian:sigma=2", device=acc), cv2.GaussianBlur(img, (0, 0), 2))

    # five filters as a Texture chain
    tex = ampvk.Texture(img, device=acc)

    def five_calls(first):
        """The chain's five filters as five calls from first; the intermediates closed."""
        x = first
        for spec in CHAIN5:
            y = x.filter(spec)
            if x is not first:
                x.close()
            x = y
        return x

    def chain_on_device():
        x = five_calls(tex)
        acc.wait()
        x.close()

    def chain_whole():
        with ampvk.Texture(img, device=acc) as x0:
            x = five_calls(x0)
            out = x.numpy()
            x.close()
        return out

    def chain_one_call():
        tex.filter(" ".join(CHAIN5)).close()
        acc.wait()

    d = median_time(chain_on_device, a.repeat, warm)
    one = median_time(chain_one_call, a.repeat, warm)
    res["chain5_one_call_ms"] = one * 1e3
    wh = median_time(chain_whole, a.repeat, warm)
    res["chain5_device_ms"] = d * 1e3
    res["chain5_whole_ms"] = wh * 1e3
    if cv2 is not None:
        c5 = median_time(lambda: cv2_five(img), a.repeat)
        res["cv2_chain5_ms"] = c5 * 1e3
        res["chain5_device_ratio"] = c5 / d
        res["chain5_one_call_ratio"] = c5 / one
        res["chain5_whole_ratio"] = c5 / wh
        diff = np.abs(chain_whole().astype(int) - cv2_five(img).astype(int)).max()
        res["chain5_max_diff_vs_cv2"] = int(diff)

    if a.tool:
        tt = tool_times(a.tool, img, a.device, max(5, a.repeat // 2))
        res["tool_filter_ms"] = tt
        res["filter_over_tool"] = res["ampvk_filter_ms"] / tt

    if a.json:
        json.dump(res, sys.stdout, indent=1)
        print()
        return
    print(f"device {res['device']}, image {res['size']} RGB uint8, median of {a.repeat}")
    print(f"overhead  the package's own time: ampvk.filter {res['own_filter_us']:.1f} us, Texture.filter "
          f"{res['own_texture_filter_us']:.1f} us; over the same C calls, in pairs: "
          f"{res['overhead_filter_us']:.1f} us and {res['overhead_texture_filter_us']:.1f} us "
          f"(C calls {res['raw_filter_small_us']:.1f} us on 16x16)")
    line = f"gaussian  ampvk.filter {res['ampvk_filter_ms']:.3f} ms"
    if cv2 is not None:
        line += (f", cv2.GaussianBlur ({res['cv2_threads']} threads) {res['cv2_gaussian_ms']:.3f} ms: "
                 f"{res['gaussian_ratio']:.2f}x")
    print(line)
    line = (f"chain5    Texture chain {res['chain5_device_ms']:.3f} ms on the device, {res['chain5_whole_ms']:.3f} ms "
            f"whole, one call {res['chain5_one_call_ms']:.3f} ms")
    if cv2 is not None:
        line += (f"; cv2 {res['cv2_chain5_ms']:.3f} ms: {res['chain5_device_ratio']:.2f}x / "
                 f"{res['chain5_whole_ratio']:.2f}x / {res['chain5_one_call_ratio']:.2f}x (largest difference "
                 f"{res['chain5_max_diff_vs_cv2']})")
    print(line)
    if a.tool:
        print(f"tool      ampvk filter upload+filter+download {res['tool_filter_ms']:.3f} ms; ampvk.filter / tool "
              f"= {res['filter_over_tool']:.2f}")


if __name__ == "__main__":
    main()
