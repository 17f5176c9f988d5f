"""ampvk.diff: the library's metrics, every field of the result, the pictures."""
import numpy as np
import pytest

import ampvk


def test_identical(rgb):
    r = ampvk.diff(rgb, rgb)
    assert r.equal and r.passed and bool(r)
    assert r.max_abs_diff == 0 and r.psnr == float("inf") and r.first_difference is None
    assert r.texels == 40 * 56 and r.differing_texels == 0
    assert set(r.as_dict()) == set(ampvk.Result.FIELDS) and len(r.histogram) == 100


def test_channel_metric_fields(rgb):
    b = rgb.copy()
    b[3, 5] = [rgb[3, 5, 0], 0, rgb[3, 5, 2]]
    b[10, 20, 2] = 255 - b[10, 20, 2] // 2 * 2 - 1 if b[10, 20, 2] < 128 else 0
    r = ampvk.diff(rgb, b, tolerance=1, max_pixels=1, window=8, draw=("overlay", "heatmap", "mask"))
    assert not r.equal and not r.passed
    assert r.differing_texels == 2 and r.allowed_texels == 1
    assert r.first_difference == (3, 5)
    assert r.channel_max_abs_diff[1] == rgb[3, 5, 1]
    assert r.window_texels == 0 or r.window_texels >= 1
    assert r.diff.shape == (40, 56, 4) and r.diff.dtype == np.uint8
    assert r.heatmap.shape[:2] == (40, 56) and r.pictures["mask"].shape[:2] == (40, 56)
    assert tuple(r.diff[3, 5, :3]) != tuple(r.diff[0, 0, :3])  # the differing pixel is drawn
    assert ampvk.diff(rgb, b, tolerance=255).passed
    assert ampvk.diff(rgb, b, max_fraction=0.01).passed


@pytest.mark.parametrize("metric", ["yiq", "ssim", "flip"])
def test_perceptual_metrics(rgb, metric):
    noisy = np.clip(rgb.astype(int) + np.random.default_rng(3).integers(-30, 30, rgb.shape), 0, 255).astype(np.uint8)
    same = ampvk.diff(rgb, rgb, metric=metric)
    other = ampvk.diff(rgb, noisy, metric=metric, threshold=0.05)
    assert same.max_score == 0 and other.max_score > 0 and other.mean_score > 0
    if metric == "ssim":
        assert same.ssim == 1 and other.ssim < 1
    if metric == "flip":  # FLIP's pooled values: a histogram of every pixel, the weighted median
        assert sum(other.histogram) == other.texels == 40 * 56
        assert 0 < other.weighted_quartiles[0] <= other.weighted_median <= other.weighted_quartiles[1]


def test_ignore_and_mask(rgb):
    b = rgb.copy()
    b[0:4, 0:4] = 0
    assert ampvk.diff(rgb, b, ignore=[(0, 0, 4, 4)]).equal
    mask = np.full(rgb.shape[:2], 255, np.uint8)
    mask[0:4, 0:4] = 0
    r = ampvk.diff(rgb, b, mask=mask)
    assert r.equal and r.ignored_texels == 16


def test_errors(rgb):
    with pytest.raises(ampvk.Error) as e:
        ampvk.diff(rgb, rgb[:10])
    assert e.value.status_name == "AMP_ERROR_INVALID_ARGUMENT" and "40" in str(e.value)
    for kw, text in [({"metric": "psnr"}, "metric 'psnr'"), ({"draw": "pretty"}, "draw: 'pretty'"),
                     ({"tolerance": 1, "threshold": 2}, "not both"), ({"ignore": [(1, 2)]}, "x, y, width, height"),
                     ({"tone_mapper": "filmic"}, "tone_mapper"), ({"colour": 1}, "colour")]:
        with pytest.raises((ampvk.Error, TypeError), match=text):
            ampvk.diff(rgb, rgb, **kw)
