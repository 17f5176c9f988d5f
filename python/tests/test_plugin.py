"""The pytest plugin on a small suite of its own (pytester, in this process)."""
import os

import numpy as np
import pytest

import ampvk

SUITE = '''
import numpy as np
import ampvk

def image(shift=0):
    y, x = np.mgrid[0:24, 0:32]
    return np.stack([x * 8, y * 10, (x + y) * 4], axis=2).astype(np.uint8) + np.uint8(shift)

def test_same(golden):
    r = golden.check(image(), "grad.png")
    assert r.passed and r.equal

def test_within_threshold(golden):
    golden.check(image(1), "grad.png", threshold=1)

def test_different(golden):
    golden.check(image(3), "grad.png", metric="channel", threshold=1)

def test_texture_same(golden):
    with ampvk.Texture(image()) as t:
        assert golden.check(t, "grad.png").equal

def test_other_size(golden):
    golden.check(image()[:12], "sub/inv.png")

def test_yiq_different(golden):
    golden.check(255 - image(), "sub/inv.png", metric="yiq", threshold=0.1)
'''


def run(pytester, *args):
    pytester.makepyfile(test_suite=SUITE)
    return pytester.runpytest_inprocess("-p", "ampvk.pytest_plugin", "-p", "no:cacheprovider", *args)


def test_update_then_check(pytester, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("AMPVK_TOOL", raising=False)
    failures = pytester.path / "failures"
    # first run: write every golden
    r = run(pytester, "--ampvk-update-golden", f"--ampvk-failures={failures}", "-k", "test_same or yiq")
    r.assert_outcomes(passed=2)
    assert (pytester.path / "golden" / "grad.png").exists() and (pytester.path / "golden/sub/inv.png").exists()
    assert np.array_equal(ampvk.load(pytester.path / "golden" / "grad.png")[0, 1], [8, 0, 4])
    # second run: compare
    r = run(pytester, f"--ampvk-failures={failures}", "--ampvk-tool=/no/such/tool")
    r.assert_outcomes(passed=4, failed=2)
    text = r.stdout.str()
    assert "golden sub/inv.png: amp_image_check_golden: cannot compare the texture (unorm_3 of 8 bits, extent " \
        "(12, 32))" in text and "an image of 32x24 with 3 channels" in text
    assert "golden grad.png: 768 of 768 pixels (100.00%) differ by the channel metric, 0 allowed" in text
    assert "largest difference 3" in text and "first difference at row 0, column 0" in text
    assert "pytest --ampvk-update-golden" in text
    assert "2 golden check(s) failed" in text
    for suffix in ("actual.png", "expected.png", "diff.png"):
        assert (failures / f"grad.{suffix}").exists(), suffix
    assert np.array_equal(ampvk.load(failures / "grad.actual.png")[0, 0], [3, 3, 3])


def test_html_report(pytester, monkeypatch):
    tool = os.environ.get("AMPVK_TOOL")
    if not tool or not os.path.exists(tool):
        pytest.skip("the ampvk tool is not built (AMPVK_TOOL)")
    monkeypatch.delenv("CI", raising=False)
    failures = pytester.path / "failures"
    run(pytester, "--ampvk-update-golden", "-k", "test_same")
    r = run(pytester, f"--ampvk-failures={failures}", "-k", "test_different")
    r.assert_outcomes(failed=1)
    index = failures / "report" / "index.html"
    assert index.exists() and f"report: {index}" in r.stdout.str()
    assert "grad" in index.read_text()


def test_missing_golden_under_ci(pytester, monkeypatch):
    monkeypatch.setenv("CI", "1")
    r = run(pytester, "-k", "test_same")
    r.assert_outcomes(failed=1)
    assert "does not exist and CI is set" in r.stdout.str()
    assert not (pytester.path / "golden" / "grad.png").exists()


def test_missing_golden_written_without_ci(pytester, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    r = run(pytester, "-k", "test_same")
    r.assert_outcomes(passed=1)
    assert "golden grad.png did not exist: written from this run" in r.stdout.str()
    assert (pytester.path / "golden" / "grad.png").exists()


def test_golden_dir_option_and_bad_arguments(pytester, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_args='''
import numpy as np, pytest, ampvk
def test_bad(golden):
    with pytest.raises(ampvk.Error, match="dtype float64"):
        golden.check(np.zeros((4, 4)), "x.png")
    with pytest.raises(ampvk.Error, match="metric 'psnr'"):
        golden.check(np.zeros((4, 4), np.uint8), "x.png", metric="psnr")
    assert golden.path("x.png").endswith("elsewhere/x.png")
''')
    r = pytester.runpytest_inprocess("-p", "ampvk.pytest_plugin", "-p", "no:cacheprovider",
                                     f"--ampvk-golden-dir={pytester.path / 'elsewhere'}")
    r.assert_outcomes(passed=1)
