#!/usr/bin/python3
"""The `ampvk` tool beside Python + OpenCV, in one run, as ratios (issue: the tool).

Three comparisons, each timed back to back and interleaved (ampvk, OpenCV, ampvk,
OpenCV, ...) so that a machine whose speed drifts treats both alike; medians:

  png    load and save of photo-like 3840x2160 RGB/RGBA 8-bit and RGB 16-bit PNGs
         (--format jpg: RGB and gray JPEGs at quality 90, cv2 writing at 90 too):
         `ampvk bench --image F --json` (amp_image_load / amp_image_save on
         the host, and amp_texture_save of the image as a texture on the default
         accelerator) against cv2.imread(F, IMREAD_UNCHANGED) / cv2.imwrite at its
         default settings, with the file sizes each writes.
  file   end to end, as a user runs it: `ampvk filter big.png out.png
         gaussian:radius=2` against `python3 -c` reading, GaussianBlur 5x5 and
         writing the same 4K PNG (each a new process, start-up included).
  folder a folder of 1920x1080 PNGs through gaussian:sigma=2: `ampvk filter DIR OUT
         gaussian:sigma=2 --quiet` against the same loop in Python over a
         multiprocessing pool of all the machine's CPUs; images/s.

    /usr/bin/python3 scripts/bench_tool.py [--ampvk build/demos/ampvk] [--work DIR]
        [--count 200] [--reps 3] [--only png,file,folder] [--format png|jpg] [--json]

Needs python3 with cv2 and numpy; makes its images with scripts/make_bench_images.py.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable

CV2_FILE = """
import sys, cv2
img = cv2.imread(sys.argv[1], cv2.IMREAD_UNCHANGED)
cv2.imwrite(sys.argv[2], cv2.GaussianBlur(img, (5, 5), 0), [cv2.IMWRITE_JPEG_QUALITY, 90])
"""

CV2_FOLDER = """
import os, sys, cv2
from multiprocessing import Pool
def one(name):
    img = cv2.imread(os.path.join(sys.argv[1], name), cv2.IMREAD_UNCHANGED)
    cv2.imwrite(os.path.join(sys.argv[2], name), cv2.GaussianBlur(img, (0, 0), 2), [cv2.IMWRITE_JPEG_QUALITY, 90])
if __name__ == "__main__":
    cv2.setNumThreads(1)  # one image per process: every CPU busy with its own
    names = sorted(n for n in os.listdir(sys.argv[1]) if n.endswith((".png", ".jpg")))
    with Pool(os.cpu_count()) as pool:
        pool.map(one, names, chunksize=1)
"""


def run(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench_tool: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return dt, p.stdout


FORMAT = "png"  # --format: the files every section makes and writes


def make_images(out, size, count, channels=3, bits=8):
    if os.path.isdir(out) and len([n for n in os.listdir(out) if n.endswith("." + FORMAT)]) == count:
        return
    shutil.rmtree(out, ignore_errors=True)
    run([PY, os.path.join(HERE, "make_bench_images.py"), "--size", size, "--count", str(count),
         "--channels", str(channels), "--bits", str(bits), "--format", FORMAT, "--out", out])


def median(xs):
    return statistics.median(xs)


def bench_png(a, work, reps, results):
    import cv2
    cases = [("rgb8", 3, 8), ("rgba8", 4, 8), ("rgb16", 3, 16)] if FORMAT == "png" else [("rgb8", 3, 8), ("gray8", 1, 8)]
    for name, ch, bits in cases:
        d = os.path.join(work, f"{FORMAT}_{name}")
        make_images(d, "3840x2160", 1, ch, bits)
        f = os.path.join(d, f"img0000.{FORMAT}")
        amp_load, amp_save, cv_load, cv_save, tex_save = [], [], [], [], []
        amp_size = tex_size = 0
        device = ""
        for _ in range(reps):
            _, out = run([a, "bench", "--image", f, "--json"])
            j = json.loads(out)
            img = j.get("image", j)
            amp_load.append(img["load_ms"])
            amp_save.append(img["save_ms"])
            amp_size = img.get("save_bytes", 0)
            tex_save.append(img["texture_save_ms"])
            tex_size = img.get("texture_save_bytes", 0)
            device = img.get("texture_save_device", "")
            for _ in range(3):
                t = time.perf_counter()
                x = cv2.imread(f, cv2.IMREAD_UNCHANGED)
                cv_load.append(1000 * (time.perf_counter() - t))
                t = time.perf_counter()
                cv2.imwrite(os.path.join(work, f"cv2_out.{FORMAT}"), x, [cv2.IMWRITE_JPEG_QUALITY, 90])
                cv_save.append(1000 * (time.perf_counter() - t))
        cv_size = os.path.getsize(os.path.join(work, f"cv2_out.{FORMAT}"))
        r = {"ampvk_load_ms": median(amp_load), "cv2_load_ms": median(cv_load),
             "ampvk_save_ms": median(amp_save), "cv2_save_ms": median(cv_save),
             "ampvk_bytes": amp_size, "cv2_bytes": cv_size,
             "ampvk_texture_save_ms": median(tex_save), "ampvk_texture_bytes": tex_size, "device": device}
        r["load_speedup"] = r["cv2_load_ms"] / r["ampvk_load_ms"]
        r["save_speedup"] = r["cv2_save_ms"] / r["ampvk_save_ms"]
        r["size_ratio"] = amp_size / cv_size if cv_size else 0
        r["texture_save_speedup"] = r["cv2_save_ms"] / r["ampvk_texture_save_ms"]
        r["texture_size_ratio"] = tex_size / cv_size if cv_size else 0
        results[f"{FORMAT}_{name}"] = r
        print(f"{FORMAT.upper():4s}{name:6s} 3840x2160  load  ampvk {r['ampvk_load_ms']:8.1f} ms  cv2 {r['cv2_load_ms']:8.1f} ms"
              f"  ({r['load_speedup']:.2f}x)")
        print(f"                      save  ampvk {r['ampvk_save_ms']:8.1f} ms  cv2 {r['cv2_save_ms']:8.1f} ms"
              f"  ({r['save_speedup']:.2f}x)  size ampvk/cv2 {r['size_ratio']:.3f}"
              f" ({amp_size} / {cv_size} bytes)")
        print(f"     from a texture ({device[:20]})  ampvk {r['ampvk_texture_save_ms']:8.1f} ms"
              f"  ({r['texture_save_speedup']:.2f}x cv2's save)  size ampvk/cv2 {r['texture_size_ratio']:.3f}")


def bench_file(a, work, reps, results):
    d = os.path.join(work, f"{FORMAT}_rgb8")
    make_images(d, "3840x2160", 1, 3, 8)
    f = os.path.join(d, f"img0000.{FORMAT}")
    amp, cv = [], []
    for _ in range(reps):
        amp.append(run([a, "filter", "--quiet", f, os.path.join(work, f"amp_file.{FORMAT}"), "gaussian:radius=2"])[0])
        cv.append(run([PY, "-c", CV2_FILE, f, os.path.join(work, f"cv2_file.{FORMAT}")])[0])
    r = {"ampvk_s": median(amp), "cv2_s": median(cv)}
    r["speedup"] = r["cv2_s"] / r["ampvk_s"]
    results["file_4k_gaussian"] = r
    print(f"file  4K {FORMAT.upper()} gaussian 5x5 end to end  ampvk {r['ampvk_s']:.3f} s  python+cv2 {r['cv2_s']:.3f} s"
          f"  ({r['speedup']:.2f}x)")


def bench_folder(a, work, reps, count, results):
    d = os.path.join(work, f"folder_{FORMAT}_{count}")
    make_images(d, "1920x1080", count, 3, 8)
    amp, cv = [], []
    for _ in range(reps):
        for tool, out in (("ampvk", "amp_folder"), ("cv2", "cv2_folder")):
            o = os.path.join(work, out)
            shutil.rmtree(o, ignore_errors=True)
            os.makedirs(o)
            if tool == "ampvk":
                amp.append(run([a, "filter", "--quiet", d, o, "gaussian:sigma=2"])[0])
            else:
                cv.append(run([PY, "-c", CV2_FOLDER, d, o])[0])
    r = {"images": count, "ampvk_s": median(amp), "cv2_s": median(cv), "cpus": os.cpu_count()}
    r["ampvk_images_per_s"] = count / r["ampvk_s"]
    r["cv2_images_per_s"] = count / r["cv2_s"]
    r["speedup"] = r["cv2_s"] / r["ampvk_s"]
    results["folder"] = r
    print(f"folder {count} x 1920x1080 {FORMAT.upper()} gaussian sigma 2  ampvk {r['ampvk_images_per_s']:.1f} images/s  "
          f"python+cv2 on {r['cpus']} CPUs {r['cv2_images_per_s']:.1f} images/s  ({r['speedup']:.2f}x)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ampvk", default=os.path.join(HERE, "..", "build", "demos", "ampvk"))
    p.add_argument("--work", default="/tmp/ampvk-bench-tool")
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--only", default="png,file,folder")
    p.add_argument("--format", choices=("png", "jpg"), default="png",
                   help="the files made, read and written (jpg: quality 90 on both sides)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    global FORMAT
    FORMAT = args.format
    os.makedirs(args.work, exist_ok=True)
    a = os.path.abspath(args.ampvk)
    results = {}
    only = args.only.split(",")
    if "png" in only:
        bench_png(a, args.work, args.reps, results)
    if "file" in only:
        bench_file(a, args.work, args.reps, results)
    if "folder" in only:
        bench_folder(a, args.work, args.reps, args.count, results)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
