#!/usr/bin/python3
"""Runs ctest's test programs on a GPU machine that has no cmake, glslc or mpiexec.

On the build machine, list the tests (ctest's own JSON, with each test's command,
arguments and environment):

    (cd build && ctest --show-only=json-v1) > tests.json

Then, on the GPU machine, with the build folder at the same path:

    python3 scripts/gpu_tests.py tests.json --device NVIDIA [--jobs 8] [--only test_filters]

Every entry whose command is a test program, a demo or a tool script runs with its
arguments and environment, except that the accelerator the tests default to
(AMPVK_DEFAULT_ACCELERATOR=llvmpipe) becomes --device, which test_accelerator also reads
(AMPVK_TEST_DEVICE). With AMPVK_VALIDATION=1 in a test's environment (ctest sets it) the
validation layer must be found there (VK_LAYER_PATH). Entries run by cmake, glslc or
mpiexec, the Python tests and the source checks are left out: they do not depend on the
device and CI runs them. Prints a line a test that did not pass and the counts; exits 1
when one failed.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

LEFT_OUT = ("test_install", "layer_check", "layer_check_catches", "comment_check", "comment_check_catches",
            "test_python")


def runnable(test):
    cmd = test["command"]
    return not (cmd[0].endswith(("cmake", "glslc")) or test["name"] in LEFT_OUT or "mpi" in test["name"])


def run(test, device, logs):
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    env = dict(os.environ, AMPVK_TEST_DEVICE=device)
    for item in props.get("ENVIRONMENT", []):
        key, value = item.split("=", 1)
        if key == "GALLIVM_PERF":
            continue
        env[key] = device if (key == "AMPVK_DEFAULT_ACCELERATOR" and value == "llvmpipe") else value
    env["XDG_CACHE_HOME"] = os.path.join(logs, "cache-" + test["name"])
    cwd = props.get("WORKING_DIRECTORY", os.getcwd())
    os.makedirs(cwd, exist_ok=True)
    start = time.time()
    try:
        p = subprocess.run(test["command"], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=props.get("TIMEOUT", 600))
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", e.stdout or b""
    status = "pass" if rc == 0 else "skip" if rc == props.get("SKIP_RETURN_CODE", 77) else "FAIL"
    if status != "pass":
        with open(os.path.join(logs, test["name"] + ".log"), "wb") as f:
            f.write(out)
    last = out.decode(errors="replace").strip().splitlines()[-1:] or [""]
    return status, "%-40s %-4s rc=%s %6.1f s  %s" % (test["name"], status, rc, time.time() - start, last[0][:100])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tests", help="ctest --show-only=json-v1's output")
    ap.add_argument("--device", default="NVIDIA", help="a name substring of the accelerator (default NVIDIA)")
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--only", default="", help="only the tests whose names start so")
    ap.add_argument("--logs", default="gpu-test-logs", help="where the output of each test that did not pass goes")
    a = ap.parse_args()
    with open(a.tests) as f:
        tests = [t for t in json.load(f)["tests"] if runnable(t) and t["name"].startswith(a.only)]
    os.makedirs(a.logs, exist_ok=True)
    logs = os.path.abspath(a.logs)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda t: run(t, a.device, logs), tests))
    for status, line in results:
        if status != "pass":
            print(line)
    counts = {s: sum(1 for r in results if r[0] == s) for s in ("pass", "skip", "FAIL")}
    print("%d tests: %d passed, %d skipped, %d failed (logs of the others in %s)" % (
        len(results), counts["pass"], counts["skip"], counts["FAIL"], logs))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
