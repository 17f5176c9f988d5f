#!/usr/bin/python3
"""`ampvk diff --metric flip` beside NVIDIA's FLIP tool (the golden-image comparison
issue), in one run, as ratios.

The pair is bench_diff.py's (a photo-like RGBA image and the same with anti-aliased
strokes moved by a pixel and a rectangle changed). Each tool compares it as a new
process, the two interleaved, medians of --reps:
- process wall time, ampvk against NVIDIA's C++ tool (its own build, OpenMP on every
  core);
- the metric alone: ampvk's kernels on the device (AMPVK_PROFILE's totals of the
  flip passes) against the "Evaluation time" NVIDIA's tool prints;
- both means, which must agree to 1e-4 (NVIDIA's tool sums the error in floats, which
  drifts on large images; ampvk sums in doubles).

    /usr/bin/python3 scripts/bench_flip.py --flip PATH [--ampvk build/demos/ampvk]
        [--size 1920x1080] [--reps 5] [--json]

--flip: NVIDIA's FLIP tool (github.com/NVlabs/flip, src/cpp/tool: `g++ -std=c++17 -O3
-fopenmp -I.. FLIP-tool.cpp -o flip`), never a dependency of ampvk. Needs python3
with cv2 and numpy (for the pair).
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_diff  # noqa: E402  (the pair)


def wall(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return time.perf_counter() - t, p


def ampvk_run(ampvk, a, b, profile=False):
    env = dict(os.environ, AMPVK_PROFILE="1") if profile else None
    s, p = wall([ampvk, "diff", "--metric", "flip", "--json", a, b], env)
    if p.returncode not in (0, 1):
        sys.exit("ampvk failed: " + p.stderr)
    mean = json.loads(p.stdout)["flip"]["mean"]
    device = None
    if profile:  # the profile's total ms of the flip passes
        device = sum(float(m.group(1)) for m in re.finditer(r"^\s+flip \w+\s+\d+\s+([\d.]+)", p.stderr, re.M))
    return s, mean, device


def nvidia_run(flip, a, b, work):
    s, p = wall([flip, "-r", a, "-t", b, "-nerm", "-d", work, "-v", "2"])
    if p.returncode != 0:
        sys.exit("NVIDIA's flip failed: " + p.stderr + p.stdout)
    mean = float(re.search(r"Mean: ([\d.]+)", p.stdout).group(1))
    evaluation = float(re.search(r"Evaluation time: ([\d.]+) seconds", p.stdout).group(1))
    return s, mean, evaluation


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flip", required=True, help="NVIDIA's FLIP tool")
    ap.add_argument("--ampvk", default=os.path.join(HERE, "..", "build", "demos", "ampvk"))
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args()
    work = tempfile.mkdtemp(prefix="bench_flip_")
    a, b = bench_diff.make_pair(work, o.size)
    ampvk_run(o.ampvk, a, b)  # the kernels compiled and cached, as in a suite's later runs
    rows = {"ampvk": [], "nvidia": [], "device": [], "evaluation": []}
    means = {}
    for _ in range(o.reps):
        s, means["ampvk"], _ = ampvk_run(o.ampvk, a, b)
        rows["ampvk"].append(s)
        s, means["nvidia"], e = nvidia_run(o.flip, a, b, work)
        rows["nvidia"].append(s)
        rows["evaluation"].append(e * 1000)
        rows["device"].append(ampvk_run(o.ampvk, a, b, profile=True)[2])
    med = {k: statistics.median(v) for k, v in rows.items()}
    result = {
        "size": o.size, "cpus": os.cpu_count(),
        "ampvk_s": round(med["ampvk"], 4), "nvidia_s": round(med["nvidia"], 4),
        "wall_ratio": round(med["nvidia"] / med["ampvk"], 3),
        "ampvk_device_ms": round(med["device"], 3), "nvidia_evaluation_ms": round(med["evaluation"], 2),
        "metric_ratio": round(med["evaluation"] / med["device"], 2),
        "ampvk_mean": means["ampvk"], "nvidia_mean": means["nvidia"],
    }
    if o.json:
        print(json.dumps(result))
    else:
        print(f"FLIP of a {o.size} pair, medians of {o.reps} ({os.cpu_count()} CPUs):")
        print(f"  process: ampvk {med['ampvk']:.3f} s, NVIDIA's tool {med['nvidia']:.3f} s "
              f"(ampvk {result['wall_ratio']:.2f}x as fast)")
        print(f"  metric:  ampvk's kernels {med['device']:.3f} ms on the device, NVIDIA's evaluation "
              f"{med['evaluation']:.1f} ms ({result['metric_ratio']:.1f}x)")
        print(f"  means:   ampvk {means['ampvk']:.6f}, NVIDIA {means['nvidia']:.6f}")
    if abs(means["ampvk"] - means["nvidia"]) > 1e-4:
        sys.exit("the means differ by more than 1e-4")


if __name__ == "__main__":
    main()
