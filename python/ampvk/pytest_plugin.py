"""Golden-image tests with pytest: the ``golden`` fixture.

Load it with ``pytest -p ampvk.pytest_plugin`` (an installed package registers it by
its pytest11 entry point, so pytest loads it by itself). In a test:

    def test_blur(golden):
        out = ampvk.filter(ampvk.load("in.png"), "gaussian:sigma=2")
        golden.check(out, "blur.png", metric="channel", threshold=1)

The golden image is GOLDEN_DIR/blur.png, GOLDEN_DIR being --ampvk-golden-dir (or the
ini option ampvk_golden_dir, relative to the rootdir), else the folder ``golden``
beside the test's file. The check is the library's (``amp_image_check_golden``):
any metric of ``ampvk.diff`` (channel, yiq, ssim, flip) with its tolerance
(threshold=), allowances (max_pixels=, max_fraction=), ignore rectangles and mask.

- A failing check raises AssertionError saying how many pixels differ and by how
  much, where, and where the images are: NAME.actual.EXT, NAME.expected.EXT and
  NAME.diff.png (NAME.EXT the golden's file name) are written into --ampvk-failures (default: ampvk-failures under the
  rootdir). When the ampvk command-line tool is found (--ampvk-tool, $AMPVK_TOOL or
  PATH), the session's failures are also gathered into its folder comparison's HTML
  report, FAILURES/report/index.html (named in the terminal summary).
- ``--ampvk-update-golden`` writes the goldens from the images checked instead.
- A missing golden is written (and the check passes, with a warning), unless the
  environment has CI set: then the check fails naming the file.
"""
import contextlib
import os
import shutil
import subprocess
import warnings

import pytest

from ._core import Error, check, ffi, lib
from .compare import Result, compare_desc
from .images import Texture


def pytest_addoption(parser):
    """The plugin's command-line and ini options."""
    group = parser.getgroup("ampvk", "golden-image tests (ampvk)")
    group.addoption("--ampvk-update-golden", action="store_true", default=False,
                    help="write the golden images from the images checked instead of comparing")
    group.addoption("--ampvk-golden-dir", default=None,
                    help="folder of the golden images (default: 'golden' beside each test file)")
    group.addoption("--ampvk-failures", default=None,
                    help="folder for the expected, actual and diff images of failed checks "
                         "(default: ampvk-failures under the rootdir)")
    group.addoption("--ampvk-tool", default=None,
                    help="the ampvk tool, for the HTML report of the failures (default: $AMPVK_TOOL, then PATH)")
    parser.addini("ampvk_golden_dir", "folder of the golden images, relative to the rootdir", default="")


class GoldenFailure(AssertionError):
    """A golden-image check that failed; ``result`` is the comparison's Result."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


class Golden:
    """The ``golden`` fixture: ``check(array, name, ...)`` compares an image array
    with the golden image ``name`` (a path under the golden folder)."""

    def __init__(self, config, test_dir, session):
        opt = config.getoption
        ini = config.getini("ampvk_golden_dir")
        if opt("ampvk_golden_dir"):
            self.dir = os.path.abspath(opt("ampvk_golden_dir"))
        elif ini:
            self.dir = os.path.join(str(config.rootpath), ini)
        else:
            self.dir = os.path.join(test_dir, "golden")
        self.failures = session.failures_dir
        self.update = opt("ampvk_update_golden")
        self.session = session

    def path(self, name):
        """The golden file's path for name."""
        return os.path.join(self.dir, name)

    def check(self, array, name, *, metric="channel", threshold=None, tolerance=None, bgr=False, device=None,
              **options):
        """Checks an image array (H x W or H x W x C; uint8, uint16, float16, float32)
        or an ampvk.Texture (compared where it is, no copy first) against the golden
        image name. metric, threshold (alias tolerance) and the other keywords are
        ampvk.diff's. Returns the Result; raises GoldenFailure (an AssertionError) when
        the check fails."""
        __tracebackhide__ = True
        path = self.path(name)
        desc = ffi.new("amp_image_golden_desc *")
        compare, keep = compare_desc(metric, tolerance=tolerance, threshold=threshold, device=device, **options)
        desc.compare = compare[0]
        failure_dir = os.path.join(self.failures, os.path.dirname(name))
        c_failure_dir = ffi.new("char[]", failure_dir.encode())
        desc.failure_dir = c_failure_dir
        out = ffi.new("amp_image_compare_result *")
        saved = os.environ.get("AMPVK_UPDATE_GOLDEN")
        if self.update:
            os.environ["AMPVK_UPDATE_GOLDEN"] = "1"
        elif saved is not None:
            del os.environ["AMPVK_UPDATE_GOLDEN"]
        if self.update or not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)  # for the golden the library writes
        try:
            given = isinstance(array, Texture)
            with contextlib.nullcontext(array) if given else Texture(array, bgr=bgr, device=device) as t:
                try:
                    check(lib.amp_image_check_golden(t.handle, path.encode(), desc, out))
                except Error as e:
                    if not os.path.exists(path) and os.environ.get("CI"):
                        raise GoldenFailure(f"golden {name}: {path} does not exist and CI is set, so it is not "
                                            f"written ({e}); run pytest --ampvk-update-golden to write it",
                                            None) from None
                    if e.status == lib.AMP_ERROR_INVALID_ARGUMENT and os.path.exists(path):
                        # images that cannot be compared (sizes, channels): a failed check
                        self.session.record(name, path, failure_dir)
                        raise GoldenFailure(f"golden {name}: {e}\n  golden: {path}\n  images in: {failure_dir}"
                                            "\n  to accept the new image: pytest --ampvk-update-golden",
                                            None) from None
                    raise
        finally:
            if saved is None:
                os.environ.pop("AMPVK_UPDATE_GOLDEN", None)
            else:
                os.environ["AMPVK_UPDATE_GOLDEN"] = saved
        del keep
        r = Result(out)
        if r.golden_written:
            if not self.update:
                warnings.warn(f"golden {name} did not exist: written from this run ({path})")
            return r
        if not r.passed:
            self.session.record(name, path, failure_dir)
            raise GoldenFailure(self._message(name, path, metric, r, failure_dir), r)
        return r

    @staticmethod
    def _message(name, path, metric, r, failure_dir):
        share = r.differing_texels / r.texels if r.texels else 0
        lines = [f"golden {name}: {r.differing_texels} of {r.texels} pixels ({share:.2%}) differ by the {metric} "
                 f"metric, {r.allowed_texels} allowed"]
        if metric == "channel":
            lines.append(f"  largest difference {r.max_abs_diff:g} (per channel "
                         f"{', '.join(f'{v:g}' for v in r.channel_max_abs_diff)}), mean {r.mean_abs_diff:g}, "
                         f"PSNR {r.psnr:.2f} dB")
        else:
            lines.append(f"  largest score {r.max_score:g}, mean {r.mean_score:g}"
                         + (f", SSIM {r.ssim:.5f}" if metric == "ssim" else ""))
        if r.first_difference:
            lines.append(f"  first difference at row {r.first_difference[0]}, column {r.first_difference[1]}")
        stem = os.path.join(failure_dir, os.path.splitext(os.path.basename(name))[0])
        lines.append(f"  golden: {path}")
        lines.append(f"  written: {stem}.actual.*, {stem}.expected.*, {stem}.diff.png")
        lines.append("  to accept the new image: pytest --ampvk-update-golden")
        return "\n".join(lines)


class _Session:
    """The session's failure folder and its failed checks, for the HTML report."""

    def __init__(self, config):
        opt = config.getoption("ampvk_failures")
        self.failures_dir = os.path.abspath(opt) if opt else os.path.join(str(config.rootpath), "ampvk-failures")
        self.tool = config.getoption("ampvk_tool") or os.environ.get("AMPVK_TOOL") or shutil.which("ampvk")
        self.failed = []  # (name, golden path, failure folder)
        self.report = None

    def record(self, name, golden_path, failure_dir):
        self.failed.append((name, golden_path, failure_dir))

    def write_report(self):
        """Gathers the failed pairs into expected/ and actual/ and runs the tool's folder
        comparison with --report; the report's path, or None."""
        if not self.failed or not self.tool:
            return None
        base = os.path.join(self.failures_dir, "pairs")
        shutil.rmtree(base, ignore_errors=True)
        for name, golden_path, failure_dir in self.failed:
            stem = os.path.splitext(os.path.basename(name))[0]
            actual = [f for f in os.listdir(failure_dir) if f.startswith(stem + ".actual.")]
            if not actual or not os.path.exists(golden_path):
                continue
            ext = os.path.splitext(actual[0])[1]
            rel = os.path.splitext(name)[0] + ext
            for side, src in (("expected", golden_path), ("actual", os.path.join(failure_dir, actual[0]))):
                dst = os.path.join(base, side, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
        report = os.path.join(self.failures_dir, "report")
        try:
            subprocess.run([self.tool, "diff", os.path.join(base, "expected"), os.path.join(base, "actual"),
                            "--report", report], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300,
                           check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        index = os.path.join(report, "index.html")
        return index if os.path.exists(index) else None


_SESSION_KEY = pytest.StashKey[_Session]()


def pytest_configure(config):
    """Makes the session's record of failures."""
    config.stash[_SESSION_KEY] = _Session(config)


@pytest.fixture
def golden(request):
    """Golden-image checks: ``golden.check(array, "name.png", metric=..., threshold=...)``."""
    return Golden(request.config, os.path.dirname(str(request.path)), request.config.stash[_SESSION_KEY])


def pytest_sessionfinish(session, exitstatus):
    """Writes the HTML report of the session's failed checks (when the tool is found)."""
    s = session.config.stash.get(_SESSION_KEY, None)
    if s is not None:
        s.report = s.write_report()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Names the failure folder and the report."""
    s = config.stash.get(_SESSION_KEY, None)
    if s is None or not s.failed:
        return
    terminalreporter.section("ampvk golden images")
    terminalreporter.write_line(f"{len(s.failed)} golden check(s) failed; images in {s.failures_dir}")
    if s.report:
        terminalreporter.write_line(f"report: {s.report}")
