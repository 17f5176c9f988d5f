"""ampvk.filter and Texture chains against OpenCV, the keyword form, layouts and errors."""
import cv2
import numpy as np
import pytest

import ampvk


def test_gaussian_matches_opencv_exactly(rgb):
    out = ampvk.filter(rgb, "gaussian:sigma=2")
    assert out.shape == rgb.shape and out.dtype == np.uint8
    # 8-bit gaussians take OpenCV's fixed-point kernel: exact (ampvk/filter.h)
    assert np.array_equal(out, cv2.GaussianBlur(rgb, (0, 0), 2))


def test_keyword_form_equals_chain_syntax(rgb):
    a = ampvk.filter(rgb, "gaussian", sigma=2, border="replicate")
    b = ampvk.filter(rgb, "gaussian:sigma=2,border=replicate")
    assert np.array_equal(a, b)
    assert np.array_equal(a, cv2.GaussianBlur(rgb, (0, 0), 2, borderType=cv2.BORDER_REPLICATE))
    # keywords add to a filter that has parameters already; lists are per-channel values
    c = ampvk.filter(rgb, "gaussian:sigma=2", border="constant", border_value=[0.5, 0, 0, 0])
    assert c.shape == rgb.shape and not np.array_equal(c, a)


def test_chain_and_list_forms(rgb):
    a = ampvk.filter(rgb, "gaussian:sigma=2 invert")
    b = ampvk.filter(rgb, ["gaussian:sigma=2", "invert"])
    assert np.array_equal(a, b)
    assert np.array_equal(a, 255 - cv2.GaussianBlur(rgb, (0, 0), 2))


def test_grayscale_gives_2d_and_bgr_flag(rgb):
    gray = ampvk.filter(rgb, "grayscale")
    assert gray.shape == rgb.shape[:2]
    assert np.array_equal(gray, cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    bgr = np.ascontiguousarray(rgb[..., ::-1])
    assert np.array_equal(ampvk.filter(bgr, "grayscale", bgr=True), gray)
    # bgr=True gives the channels back in the order they came
    assert np.array_equal(ampvk.filter(bgr, "invert", bgr=True), 255 - bgr)


def test_resize_and_output_dtype(rgb):
    out = ampvk.filter(rgb, "resize:width=28,interpolation=nearest")
    assert out.shape == (20, 28, 3)
    assert np.array_equal(out, cv2.resize(rgb, (28, 20), interpolation=cv2.INTER_NEAREST))
    f = ampvk.filter(rgb, "copy", dtype=np.float32)
    assert f.dtype == np.float32
    np.testing.assert_allclose(f, rgb / 255.0, atol=1e-6)  # normalized: 255 is 1.0


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float16, np.float32])
@pytest.mark.parametrize("channels", [0, 1, 2, 3, 4])
def test_every_image_type(dtype, channels):
    shape = (9, 11) if channels == 0 else (9, 11, channels)
    peak = 1.0 if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    a = (np.arange(np.prod(shape)).reshape(shape) % 7 * peak / 7).astype(dtype)
    out = ampvk.filter(a, "invert")
    assert out.shape == shape and out.dtype == np.dtype(dtype)
    want = (peak - a.astype(np.float64))
    if channels in (2, 4):  # invert keeps alpha
        want[..., -1] = a[..., -1]
    np.testing.assert_allclose(out.astype(np.float64), want, atol=peak * 1e-3)


def test_views_and_non_contiguous_arrays(rgb):
    big = np.zeros((80, 112, 4), np.uint8)
    big[::2, ::2, :3] = rgb
    view = big[::2, ::2, :3]            # strided, not contiguous
    assert not view.flags.c_contiguous
    assert np.array_equal(ampvk.filter(view, "gaussian:sigma=2"), ampvk.filter(rgb, "gaussian:sigma=2"))
    t = rgb.transpose(1, 0, 2)          # a transposed view
    assert np.array_equal(ampvk.filter(t, "invert"), 255 - t)
    ro = rgb.copy()
    ro.flags.writeable = False          # read-only input is fine
    assert np.array_equal(ampvk.filter(ro, "invert"), 255 - rgb)
    be = rgb.astype(">u2") * 257        # big-endian uint16
    assert np.array_equal(ampvk.filter(be, "invert"), 65535 - be.astype(np.uint16))


def test_texture_chain_stays_on_device(rgb):
    with ampvk.Texture(rgb) as t:
        assert t.shape == rgb.shape and t.dtype == np.uint8
        t2 = t.filter("gaussian", sigma=2).filter("invert").filter("grayscale")
        assert t2.shape == rgb.shape[:2]
        got = t2.numpy()
    want = cv2.cvtColor(255 - cv2.GaussianBlur(rgb, (0, 0), 2), cv2.COLOR_RGB2GRAY)
    assert np.array_equal(got, want)
    assert np.array_equal(ampvk.filter(ampvk.Texture(rgb), "invert").numpy(), 255 - rgb)
    assert np.array_equal(np.asarray(ampvk.Texture(rgb, bgr=True)), rgb)
    z = ampvk.Texture(shape=(4, 5, 2), dtype=np.float16)
    assert z.numpy().shape == (4, 5, 2) and not z.numpy().any()


def test_help_lists_filters_and_parameters():
    doc = ampvk.filter.__doc__
    for name in ampvk.filter_names():
        assert f"\n    {name}" in doc
    assert "gaussian:radius=INT,sigma=FLOAT,border=default|reflect_101|replicate|reflect|wrap|constant" in doc
    assert "resize:width=INT,height=INT,interpolation=linear|nearest|area|cubic|lanczos4" in doc
    assert len(ampvk.filter_names()) == 20


@pytest.mark.parametrize("image, chain, kw, message", [
    ([[1, 2]], "invert", {}, "a numpy array is needed, not list"),
    (np.zeros((4, 4), np.int32), "invert", {}, "dtype int32 is not an image type"),
    (np.zeros((4, 4, 5), np.uint8), "invert", {}, "has 5 channels"),
    (np.zeros((4,), np.uint8), "invert", {}, "is not H x W or H x W x C"),
    (np.zeros((0, 4), np.uint8), "invert", {}, "is empty"),
    (np.zeros((4, 4), np.uint8), "blur", {}, "\"blur\" is not a filter"),
    (np.zeros((4, 4), np.uint8), "gaussian:sigma=x", {}, "sigma=x"),
    (np.zeros((4, 4), np.uint8), "gaussian invert", {"sigma": 2}, "need a chain of one filter"),
    (np.zeros((4, 4), np.uint8), "", {}, "no filter"),
    (np.zeros((4, 4), np.uint8), None, {}, "no filter given"),
    (np.zeros((4, 4), np.uint8), "median:radius=9", {}, "radius 9 is out of range (0 to 7)"),
    (np.zeros((4, 4), np.uint8), "gaussian", {"sigma": object()}, "is not a number"),
    (np.zeros((4, 4, 3), np.uint8), "equalize", {}, "equalize"),
    (np.zeros((4, 4), np.uint8), "invert", {"device": "no-such-device"}, "no-such-device"),
    (np.zeros((4, 4), np.uint8), "invert", {"dtype": np.int8}, "dtype=int8 is not an image type"),
])
def test_errors(image, chain, kw, message):
    with pytest.raises(ampvk.Error) as e:
        ampvk.filter(image, chain, **kw)
    assert message in str(e.value)
    assert e.value.status != 0 and e.value.status_name.startswith("AMP_ERROR_")


def test_closed_texture(rgb):
    t = ampvk.Texture(rgb)
    t.close()
    t.close()  # twice is harmless
    for call in (t.numpy, lambda: t.filter("invert"), lambda: ampvk.filter(t, "invert")):
        with pytest.raises(ampvk.Error) as e:
            call()
        assert "closed" in str(e.value) and e.value.status_name == "AMP_ERROR_INVALID_STATE"


def test_texture_errors(rgb):
    with pytest.raises(ampvk.Error, match="not a texture type"):
        ampvk.Texture(np.zeros((4, 4), np.float64))
    with pytest.raises(ampvk.Error, match="an array or a shape"):
        ampvk.Texture()
    for shape in [(-1, 3), (4,), 5, (2.0, 3), (4, 4, 5), (0, 4)]:
        with pytest.raises(ampvk.Error, match="shape"):
            ampvk.Texture(shape=shape)
    with pytest.raises(ampvk.Error, match="dtype= is for a texture made from a shape"):
        ampvk.Texture(rgb, dtype=np.float32)
    with pytest.raises(ampvk.Error) as e:
        ampvk.Texture(shape=(70000, 70000))
    assert e.value.status_name == "AMP_ERROR_OUT_OF_BOUNDS" and "70000" in str(e.value)
    with pytest.raises(ampvk.Error, match="writable C-contiguous array"):
        ampvk.Texture(rgb).numpy(out=np.empty((3, 3), np.uint8))
    with pytest.raises(ampvk.Error, match="a uint texture cannot be filtered"):
        ampvk.Texture(rgb, normalized=False).filter("invert")


def test_threads(rgb):
    # the call releases the GIL in the library; the kept textures are taken by one call each
    from concurrent.futures import ThreadPoolExecutor
    want = {k: cv2.GaussianBlur(rgb[: 20 + k], (0, 0), 1 + k % 2) for k in range(4)}
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda i: (i % 4, ampvk.filter(rgb[: 20 + i % 4], "gaussian", sigma=1 + i % 2)),
                          range(32)))
    for k, out in got:
        assert np.array_equal(out, want[k])


def test_closed_textures_are_used_again(rgb):
    from ampvk.images import pool
    ampvk.release_cached_textures()
    t = ampvk.Texture(rgb)
    handle = t.handle
    t.filter("invert").close()
    t.close()
    assert pool.count == 2
    again = ampvk.Texture(255 - rgb)                  # the same size and type: a kept texture
    assert again.handle == handle and np.array_equal(again.numpy(), 255 - rgb)
    zeros = ampvk.Texture(shape=rgb.shape, dtype=np.uint8)
    assert not zeros.numpy().any()                    # made from a shape: new, zeros
    again.close()
    zeros.close()
    assert pool.count == 3
    for k in range(10):                               # at most 8 kept, the last given back
        ampvk.Texture(shape=(2, 3 + k), dtype=np.float32).close()
    assert pool.count == 8 and all(key[2] >= 5 for key in pool.free)
    assert pool.bytes == sum(2 * key[2] * 4 * len(v) for key, v in pool.free.items())
    saved = pool.max_bytes
    try:
        pool.max_bytes = 1000                         # 40 x 56 x 4 x 4 bytes is more: destroyed
        ampvk.Texture(shape=rgb.shape, dtype=np.float32).close()
        assert pool.count == 8 and pool.bytes <= 1000
    finally:
        pool.max_bytes = saved
    ampvk.release_cached_textures()
    assert pool.count == 0 and pool.bytes == 0
