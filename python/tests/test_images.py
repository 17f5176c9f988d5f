"""ampvk.load and ampvk.save: every format the library writes, depths, BGR, errors."""
import os

import cv2
import numpy as np
import pytest

import ampvk

TIFF = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "formats", "tiff")


@pytest.mark.parametrize("ext, dtype, exact", [
    ("png", np.uint8, True), ("png", np.uint16, True), ("tif", np.uint8, True), ("tif", np.uint16, True),
    ("tif", np.float32, True), ("exr", np.float32, True), ("webp", np.uint8, True), ("jpg", np.uint8, False),
    ("bmp", np.uint8, True), ("tga", np.uint8, True), ("hdr", np.float32, False),
])
def test_round_trip(tmp_path, rgb, ext, dtype, exact):
    if np.dtype(dtype).kind == "f":
        img = rgb.astype(np.float32) / 255
    else:
        img = rgb.astype(dtype) * (257 if dtype == np.uint16 else 1)
    path = tmp_path / f"x.{ext}"
    ampvk.save(path, img, lossless=ext == "webp")
    back = ampvk.load(path, channels=3)    # HDR files load as RGBA by default
    assert back.shape == img.shape
    if ext == "jpg":  # ampvk writes cv2.imwrite's bytes and decodes as cv2.imread does
        ok, enc = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert np.array_equal(back, cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1])
    elif exact:
        assert back.dtype == img.dtype and np.array_equal(back, img)
    else:
        # lossy: WebP and HDR's shared exponent
        tol = 0.01 if back.dtype.kind == "f" else 2
        assert np.abs(back.astype(np.float64) - img.astype(np.float64)).mean() <= tol


def test_cv2_reads_what_ampvk_writes_and_bgr(tmp_path, rgb):
    ampvk.save(tmp_path / "a.png", rgb)
    assert np.array_equal(cv2.imread(str(tmp_path / "a.png"))[..., ::-1], rgb)
    bgr = cv2.imread(str(tmp_path / "a.png"))
    assert np.array_equal(ampvk.load(tmp_path / "a.png", bgr=True), bgr)
    ampvk.save(tmp_path / "b.png", bgr, bgr=True)
    assert np.array_equal(ampvk.load(tmp_path / "b.png"), rgb)


def test_gray_float16_views_and_options(tmp_path, rgb):
    gray = rgb[..., 1]                      # a strided view
    ampvk.save(tmp_path / "g.png", gray)
    assert np.array_equal(ampvk.load(tmp_path / "g.png"), gray)
    assert ampvk.load(tmp_path / "g.png", channels=3).shape == rgb.shape
    half = (rgb / 255).astype(np.float16)
    ampvk.save(tmp_path / "h.exr", half)    # float16 is written as float32 samples (half in the file)
    np.testing.assert_allclose(ampvk.load(tmp_path / "h.exr"), half.astype(np.float32), atol=1e-3)
    ampvk.save(tmp_path / "q.jpg", rgb, quality=95, subsampling=444)
    ampvk.save(tmp_path / "c.tif", rgb, compression="deflate")
    ampvk.save(tmp_path / "noext", rgb, format="png")
    assert np.array_equal(ampvk.load(tmp_path / "noext"), rgb)
    ampvk.save(tmp_path / "s.png", rgb.astype(np.uint16) * 257, bits=8)
    assert ampvk.load(tmp_path / "s.png").dtype == np.uint8


@pytest.mark.parametrize("orientation", [3, 6])
def test_orientation(orientation):
    """A TIFF's orientation is applied as cv2.imread applies it; ignore_orientation keeps
    the pixels as stored."""
    path = os.path.join(TIFF, f"ori_rgb8_o{orientation}.tif")
    shown = ampvk.load(path)
    assert np.array_equal(shown, cv2.imread(path)[..., ::-1])
    stored = ampvk.load(path, ignore_orientation=True)
    assert stored.shape == (24, 29, 3)
    assert shown.shape == ((29, 24, 3) if orientation >= 5 else (24, 29, 3))
    turned = np.rot90(stored, -1) if orientation == 6 else stored[::-1, ::-1]
    assert np.array_equal(shown, turned)


def test_errors(tmp_path, rgb):
    with pytest.raises(ampvk.Error) as e:
        ampvk.load(tmp_path / "missing.png")
    assert e.value.status_name == "AMP_ERROR_IO" and "missing.png" in str(e.value)
    (tmp_path / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\nnot a png")
    with pytest.raises(ampvk.Error) as e:
        ampvk.load(tmp_path / "bad.png")
    assert e.value.status_name == "AMP_ERROR_FORMAT"
    ampvk.save(tmp_path / "big.png", rgb)
    h, w = rgb.shape[:2]
    with pytest.raises(ampvk.Error, match=f"image {w}x{h} is {w * h} pixels; max_pixels allows {w * h - 1}") as e:
        ampvk.load(tmp_path / "big.png", max_pixels=w * h - 1)
    assert e.value.status_name == "AMP_ERROR_OUT_OF_BOUNDS"
    assert ampvk.load(tmp_path / "big.png", max_pixels=w * h).shape[:2] == (h, w)
    with pytest.raises(ampvk.Error, match="no image format for this name"):
        ampvk.save(tmp_path / "x.unknown", rgb)
    with pytest.raises(ampvk.Error, match="format 'gif'"):
        ampvk.save(tmp_path / "x.gif", rgb, format="gif")
    with pytest.raises(ampvk.Error, match="compression 'zstd'"):
        ampvk.save(tmp_path / "x.tif", rgb, compression="zstd")
    with pytest.raises(ampvk.Error, match="dtype float64"):
        ampvk.save(tmp_path / "x.png", rgb.astype(np.float64))
    assert not list(tmp_path.glob("x.*"))
