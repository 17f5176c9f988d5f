#!/usr/bin/python3
"""`ampvk diff` beside odiff, pixelmatch and ImageMagick's compare, in one run, as ratios
(the golden-image comparison issue).

A pair is a photo-like RGBA image (scripts/make_bench_images.py) and the same with
anti-aliased strokes moved by a pixel and a rectangle changed, as a render test sees
after a driver update. Each tool compares the pair as a new process, wall time, the
tools interleaved (ampvk, odiff, ..., ampvk, odiff, ...) so that a machine whose speed
drifts treats them alike; medians of --reps. Also each tool's count of differing
pixels, which for ampvk's YIQ metric and pixelmatch must agree.

    /usr/bin/python3 scripts/bench_diff.py --peers DIR [--ampvk build/demos/ampvk]
        [--size 3840x2160] [--reps 5] [--cpu 1] [--json]
    /usr/bin/python3 scripts/bench_diff.py --peers DIR --folder 200 [--size 1920x1080]
    /usr/bin/python3 scripts/bench_diff.py --peers DIR --server 60 [--size 1920x1080]

--folder N: a folder of N pairs (each image its own, the changes as above) the way a
render suite compares them: `ampvk diff GOLDEN ACTUAL --metric yiq` (one process)
against odiff run over the pairs with one process per core (xargs -P) and against
reg-cli over the folders (which writes a diff of every pair and its report; ampvk
with --report, which writes those of the failing pairs); pairs a second.

--server N: the first N pairs of that folder through one `ampvk diff --server` and one
`odiff --server` process (odiff's server writes a diff image for every request; the
requests to ampvk ask for one too).

--peers: a folder where `npm install odiff-bin pixelmatch pngjs` was run (never a
dependency of ampvk; odiff runs as its native binary, without node's start-up);
--odiff PATH names odiff's binary instead (a machine without node). A peer that is not there is left out. --cpu N pins every process to CPU N
(taskset), one core each; without it they use every core. Needs python3 with cv2 and
numpy.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def make_pair(work, size):
    import cv2
    import numpy as np
    a_path, b_path = os.path.join(work, "a.png"), os.path.join(work, "b.png")
    if os.path.exists(a_path) and os.path.exists(b_path):
        return a_path, b_path
    subprocess.run([sys.executable, os.path.join(HERE, "make_bench_images.py"), "--size", size, "--count", "1",
                    "--channels", "4", "--out", work], check=True)
    os.replace(os.path.join(work, "img0000.png"), a_path)
    img = cv2.imread(a_path, cv2.IMREAD_UNCHANGED)
    w, h = img.shape[1], img.shape[0]
    rng = np.random.default_rng(7)
    a, b = img.copy(), img.copy()
    for _ in range(400):  # strokes, a pixel apart in the two images: anti-aliased edges
        x, y = int(rng.integers(0, w - 200)), int(rng.integers(0, h - 200))
        dx, dy = int(rng.integers(-150, 150)), int(rng.integers(-150, 150))
        color = tuple(int(c) for c in rng.integers(0, 255, 3)) + (255,)
        cv2.line(a, (x, y), (x + dx, y + dy), color, 2, cv2.LINE_AA)
        cv2.line(b, (x + 1, y), (x + 1 + dx, y + dy), color, 2, cv2.LINE_AA)
    cv2.rectangle(b, (w // 3, h // 3), (w // 3 + 120, h // 3 + 40), (0, 0, 255, 255), -1)
    cv2.imwrite(a_path, a)
    cv2.imwrite(b_path, b)
    return a_path, b_path


def run(cmd, ok=(0, 1, 22, 66)):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    if p.returncode not in ok:
        sys.exit(f"bench_diff: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return dt, p.stdout + p.stderr


def count_of(name, out):
    """The differing pixels a tool printed."""
    pats = {"ampvk": r"pixels over [\d.]+: (\d+) of", "odiff": r"^(\d+);", "pixelmatch": r"different pixels: (\d+)",
            "compare": r"^(\d+)"}
    key = name.split()[0]
    m = re.search(pats[key], out, re.M)
    return int(m.group(1)) if m else (0 if key == "odiff" and not out.strip() else None)


def interleaved(tools, reps):
    """Each command of tools run reps times, the tools in turn; the median seconds and
    the last output of each."""
    times, outs = {k: [] for k in tools}, {}
    for _ in range(reps):
        for k, cmd in tools.items():
            dt, outs[k] = run(cmd)
            times[k].append(dt)
    return {k: statistics.median(v) for k, v in times.items()}, outs


def show(res, title, lines):
    """The result as JSON, or as the title, a line a tool and the ratios."""
    if res.get("json"):
        print(json.dumps({k: v for k, v in res.items() if k != "json"}))
        return
    print(title)
    for line in lines:
        print("  " + line)
    for k, v in res["ratios"].items():
        print(f"  {k:30s} {v:.2f}x")


def make_folder(work, size, count):
    """count pairs: golden/imgNNNN.png and actual/imgNNNN.png, changed as make_pair's."""
    import cv2
    import numpy as np
    g, a = os.path.join(work, "golden"), os.path.join(work, "actual")
    if os.path.isdir(a) and len(os.listdir(a)) == count:
        return g, a
    subprocess.run([sys.executable, os.path.join(HERE, "make_bench_images.py"), "--size", size, "--count",
                    str(count), "--channels", "4", "--out", g], check=True)
    os.makedirs(a, exist_ok=True)
    for i, name in enumerate(sorted(os.listdir(g))):
        img = cv2.imread(os.path.join(g, name), cv2.IMREAD_UNCHANGED)
        h, w = img.shape[:2]
        rng = np.random.default_rng(i)
        for _ in range(40):
            x, y = int(rng.integers(0, w - 100)), int(rng.integers(0, h - 100))
            cv2.line(img, (x, y), (x + int(rng.integers(-90, 90)), y + int(rng.integers(-90, 90))),
                     (0, 0, 0, 255), 1, cv2.LINE_AA)
        if i % 4 == 0:
            cv2.rectangle(img, (w // 3, h // 3), (w // 3 + 60, h // 3 + 20), (0, 0, 255, 255), -1)
        cv2.imwrite(os.path.join(a, name), img)
    return g, a


def bench_folder(o, bin_, odiff):
    work = os.path.join(o.work, f"folder-{o.size}-{o.folder}")
    os.makedirs(work, exist_ok=True)
    g, a = make_folder(work, o.size, o.folder)
    jobs = str(os.cpu_count())
    tools = {
        "ampvk": [os.path.abspath(o.ampvk), "diff", "--metric", "yiq", "--on-white", g, a],
        "ampvk --report": [o.ampvk, "diff", "--metric", "yiq", "--on-white", g, a, "--report",
                           os.path.join(work, "report")],
        "odiff (xargs -P)": ["sh", "-c", f'cd "{a}" && ls | xargs -P {jobs} -I{{}} "{odiff}" "{g}/{{}}" "{a}/{{}}" '
                             f'>/dev/null; true'],
        "reg-cli": ["node", os.path.join(bin_, "reg-cli"), a, g, os.path.join(work, "reg-diff"), "-J",
                    os.path.join(work, "reg.json"), "-T", "0.1"],
    }
    have = {"odiff (xargs -P)": os.path.exists(odiff), "reg-cli": os.path.exists(os.path.join(bin_, "reg-cli"))}
    tools = {k: v for k, v in tools.items() if have.get(k, True)}
    med, _ = interleaved(tools, o.reps)
    res = {"folder": o.folder, "size": o.size, "reps": o.reps, "seconds": med, "json": o.json,
           "pairs_per_s": {k: o.folder / v for k, v in med.items()},
           "ratios": {"odiff (xargs -P) / ampvk": med.get("odiff (xargs -P)", 0) / med["ampvk"],
                      "reg-cli / ampvk --report": med.get("reg-cli", 0) / med["ampvk --report"]}}
    show(res, f"{o.folder} pairs of {o.size}, all CPUs, medians of {o.reps}:",
         [f"{k:18s} {med[k]:8.2f} s   {o.folder / med[k]:7.1f} pairs/s" for k in tools])


def bench_server(o, odiff):
    """The folder's first --server pairs through each tool's server mode, one process for
    all of them (as a test suite's harness keeps one): odiff's server writes a diff
    image for every request (it requires one), so ampvk's requests ask for one too."""
    work = os.path.join(o.work, f"folder-{o.size}-{max(o.server, 200)}")
    os.makedirs(work, exist_ok=True)
    g, a = make_folder(work, o.size, max(o.server, 200))
    names = sorted(os.listdir(g))[:o.server]
    files = {"ampvk": os.path.join(work, "ampvk_requests.txt"), "odiff": os.path.join(work, "odiff_requests.txt")}
    with open(files["ampvk"], "w") as f:
        for i, n in enumerate(names):
            f.write(json.dumps({"id": i, "expected": os.path.join(g, n), "actual": os.path.join(a, n),
                                "metric": "yiq", "on_white": True,
                                "diff": os.path.join(work, f"ampvk_diff{i % 2}.png")}) + "\n")
    with open(files["odiff"], "w") as f:
        for i, n in enumerate(names):
            f.write(json.dumps({"requestId": i, "base": os.path.join(g, n), "compare": os.path.join(a, n),
                                "output": os.path.join(work, f"odiff_diff{i % 2}.png"),
                                "options": {"threshold": 0.1}}) + "\n")
    tools = {"ampvk --server": ["sh", "-c", f'"{os.path.abspath(o.ampvk)}" diff --server <"{files["ampvk"]}"'],
             "odiff --server": ["sh", "-c", f'"{odiff}" --server <"{files["odiff"]}"']}
    if not os.path.exists(odiff):
        del tools["odiff --server"]
    med, outs = interleaved(tools, o.reps)
    answered = {k: sum(1 for line in outs[k].splitlines() if '"id"' in line or '"requestId"' in line) for k in tools}
    res = {"server": o.server, "size": o.size, "reps": o.reps, "seconds": med, "answered": answered, "json": o.json,
           "ratios": {"odiff --server / ampvk --server": med.get("odiff --server", 0) / med["ampvk --server"]}}
    show(res, f"{o.server} pairs of {o.size} through one server process, medians of {o.reps}:",
         [f"{k:16s} {med[k]:8.2f} s   {answered[k]} answers" for k in tools])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ampvk", default=os.path.join(HERE, "..", "build", "demos", "ampvk"))
    ap.add_argument("--peers", default="")
    ap.add_argument("--odiff")
    ap.add_argument("--work", default="/tmp/ampvk-bench-diff")
    ap.add_argument("--size", default="3840x2160")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu", type=int)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--folder", type=int)
    ap.add_argument("--server", type=int)
    o = ap.parse_args()
    bin_ = os.path.join(o.peers, "node_modules", ".bin")
    # odiff's own binary, not the node script that starts it (node's start-up is not odiff's)
    native = os.path.join(o.peers, "node_modules", "@odiff", "linux-x64", "odiff")
    odiff = os.path.abspath(o.odiff or (native if os.path.exists(native) else os.path.join(bin_, "odiff")))
    if o.folder:
        return bench_folder(o, bin_, odiff)
    if o.server:
        return bench_server(o, odiff)
    work = os.path.join(o.work, o.size)
    os.makedirs(work, exist_ok=True)
    a, b = make_pair(work, o.size)
    pin = ["taskset", "-c", str(o.cpu)] if o.cpu is not None else []
    tools = {
        "ampvk channel": [o.ampvk, "diff", a, b],
        "ampvk yiq": [o.ampvk, "diff", "--metric", "yiq", "--on-white", a, b],
        "odiff": [odiff, a, b, "--parsable-stdout"],
        "ampvk yiq --aa": [o.ampvk, "diff", "--metric", "yiq", "--on-white", "--aa", a, b],
        "odiff --aa": [odiff, a, b, "--aa", "--parsable-stdout"],
        "pixelmatch": ["node", os.path.join(bin_, "pixelmatch"), a, b, "", "0.1"],
        "compare": ["compare", "-metric", "AE", a, b, "null:"],
    }
    have = {"odiff": os.path.exists(odiff), "pixelmatch": os.path.exists(os.path.join(bin_, "pixelmatch")) and
            shutil.which("node"), "compare": shutil.which("compare")}
    tools = {k: v for k, v in tools.items() if have.get(k.split()[0], True)}
    secs, outs = interleaved(tools, o.reps)
    med = {k: v * 1000 for k, v in secs.items()}
    counts = {k: count_of(k, outs[k]) for k in tools}
    pairs = [("odiff", "ampvk yiq"), ("odiff --aa", "ampvk yiq --aa"), ("pixelmatch", "ampvk yiq --aa"),
             ("compare", "ampvk channel")]
    res = {"size": o.size, "cpu": o.cpu, "reps": o.reps, "ms": med, "differing_pixels": counts, "json": o.json,
           "ratios": {f"{p} / {q}": med[p] / med[q] for p, q in pairs if p in med}}
    show(res, f"{o.size} pair, {'CPU ' + str(o.cpu) if o.cpu is not None else 'all CPUs'}, medians of {o.reps}:",
         [f"{k:16s} {med[k]:8.1f} ms   differing pixels: {counts[k]}" for k in tools])


if __name__ == "__main__":
    main()
