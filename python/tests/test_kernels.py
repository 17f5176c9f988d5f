"""Kernels over numpy arrays (in place, views, strides), textures, samplers, errors."""
import numpy as np
import pytest

import ampvk


@pytest.fixture(scope="module")
def add():
    return ampvk.Kernel(params="array_view<const int, 1> a, array_view<const int, 1> b, array_view<int, 1> sum",
                        body="sum(idx) = a(idx) + b(idx);")


def test_sum_in_place(add):
    a = np.array([1, 2, 3, 4, 5], np.int32)
    b = np.array([6, 7, 8, 9, 10], np.int32)
    s = np.zeros(5, np.int32)
    ampvk.parallel_for_each(5, add, a=a, b=b, sum=s)
    assert s.tolist() == [7, 9, 11, 13, 15]
    assert [p.type_name for p in add.params.values()] == ["int", "int", "int"]


def test_views_and_strides(add):
    base = np.arange(20, dtype=np.int32)
    a = base[::2]                   # strided, read by the kernel: a packed copy goes up
    b = base[1::2]
    out = np.zeros(20, np.int32)
    s = out[::2]                    # strided and written: results land in place
    ampvk.parallel_for_each(10, add, a=a, b=b, sum=s)
    assert out[::2].tolist() == [4 * i + 1 for i in range(10)]
    assert not out[1::2].any()      # the elements between are untouched
    ro = np.arange(5, dtype=np.int32)
    ro.flags.writeable = False      # read-only arrays may be read
    s2 = np.zeros(5, np.int32)
    ampvk.parallel_for_each(5, add, a=ro, b=ro, sum=s2)
    assert s2.tolist() == [0, 2, 4, 6, 8]


def test_rank2_vectors_and_scalars():
    k = ampvk.Kernel(params="array_view<float_4, 2> img, float gain, int_2 shift, vec2 bias",
                     body="img(idx) = img(idx) * gain + float(shift.x + shift.y) + bias.y;", rank=2)
    img = np.ones((3, 5, 4), np.float32)
    img[1, 2] = [1, 2, 3, 4]
    t = img.transpose(1, 0, 2)      # written through a transposed view
    ampvk.parallel_for_each((5, 3), k, img=t, gain=2.0, shift=(1, 2), bias=(0, 0.5))
    assert img[1, 2].tolist() == [5.5, 7.5, 9.5, 11.5]
    assert img[0, 0].tolist() == [5.5, 5.5, 5.5, 5.5]


def test_textures_and_samplers():
    src = np.arange(16, dtype=np.float32).reshape(4, 4)
    t = ampvk.Texture(src)
    out = ampvk.Texture(shape=(4, 4), dtype=np.float32)
    k = ampvk.Kernel(params="texture_view<const float, 2> src, sampler s, texture<float, 2> dst",
                     body="dst_set(idx, src_sample(s, (vec2(idx.y, idx.x) + 0.5) / vec2(4.0), 0.0) + 1.0);",
                     rank=2)
    ampvk.parallel_for_each((4, 4), k, src=t, s=ampvk.Sampler("point"), dst=out)
    assert np.array_equal(out.numpy(), src + 1)


def test_integer_textures():
    codes = np.array([[0, 7], [200, 65535]], np.uint16)
    t = ampvk.Texture(codes, normalized=False)            # a uint texture: kernels see the codes
    assert t.dtype == np.uint16 and np.array_equal(t.numpy(), codes)
    out = np.zeros((2, 2), np.uint32)
    k = ampvk.Kernel(params="texture<uint, 2> t, array_view<uint, 2> o", body="o(idx) = t(idx) + 1u;", rank=2)
    ampvk.parallel_for_each((2, 2), k, t=t, o=out)
    assert out.tolist() == [[1, 8], [201, 65536]]
    signed = ampvk.Texture(np.array([[-5, 5]], np.int8), normalized=False)
    assert signed.numpy().tolist() == [[-5, 5]]
    assert ampvk.Texture(np.ones((2, 2), np.float32), normalized=False).dtype == np.float32
    with pytest.raises(ampvk.Error, match="dtype int8 is not a texture type"):
        ampvk.Texture(np.zeros((2, 2), np.int8))


def test_struct_arrays():
    k = ampvk.Kernel(declarations="struct pair { int a; float b; };", params="array_view<pair, 1> p",
                     body="p(idx).a += 1; p(idx).b *= 2.0;")
    p = np.zeros(3, dtype=[("a", np.int32), ("b", np.float32)])
    p["a"] = [1, 2, 3]
    p["b"] = [0.5, 1, 1.5]
    ampvk.parallel_for_each(3, k, p=p)
    assert p["a"].tolist() == [2, 3, 4] and p["b"].tolist() == [1, 2, 3]


def test_kernel_errors(add):
    ok = np.zeros(5, np.int32)
    cases = [
        (lambda: ampvk.Kernel(params="array_view<int, 1> a", body="a(idx) = nope;"), "AMP_ERROR_COMPILE", "nope"),
        (lambda: ampvk.Kernel(params="array_view<int 1> a", body=""), "AMP_ERROR_INVALID_ARGUMENT", ""),
        (lambda: ampvk.parallel_for_each(5, add, a=ok, b=ok), "AMP_ERROR_ARGUMENT_MISMATCH", "sum"),
        (lambda: ampvk.parallel_for_each(5, add, a=ok, b=ok, sum=ok, c=ok), "AMP_ERROR_ARGUMENT_MISMATCH",
         "'c' is not a parameter"),
        (lambda: ampvk.parallel_for_each(5, add, a=ok, b=ok, sum=ok.astype(np.float32)),
         "AMP_ERROR_INVALID_ARGUMENT", "of int32 is needed, not shape (5,) of float32"),
        (lambda: ampvk.parallel_for_each(5, add, a=ok, b=ok, sum=ok.reshape(5, 1)),
         "AMP_ERROR_INVALID_ARGUMENT", "1 dimensions"),
        (lambda: ampvk.parallel_for_each(5, add, a=ok, b=ok, sum=[0] * 5), "AMP_ERROR_INVALID_ARGUMENT",
         "a numpy array is needed"),
        (lambda: ampvk.parallel_for_each((5, 1), add, a=ok, b=ok, sum=ok), None, "rank"),
        (lambda: ampvk.parallel_for_each("5", add, a=ok, b=ok, sum=ok), "AMP_ERROR_INVALID_ARGUMENT", "extent"),
        (lambda: ampvk.parallel_for_each(5, "add"), "AMP_ERROR_INVALID_ARGUMENT", "ampvk.Kernel"),
    ]
    for call, status, text in cases:
        with pytest.raises(ampvk.Error) as e:
            call()
        assert status is None or e.value.status_name == status, (str(e.value), status)
        assert text in str(e.value)
    ro = np.zeros(5, np.int32)
    ro.flags.writeable = False
    with pytest.raises(ampvk.Error, match="read-only but the kernel may write it"):
        ampvk.parallel_for_each(5, add, a=ok, b=ok, sum=ro)
    assert not ok.any()  # nothing ran


def test_scalar_and_texture_argument_errors():
    k = ampvk.Kernel(params="array_view<int, 1> o, int n, float_2 v, texture<float, 2> t, sampler s",
                     body="o(idx) = n;")
    o = np.zeros(2, np.int32)
    t = ampvk.Texture(shape=(2, 2))
    good = dict(o=o, n=1, v=(1.0, 2.0), t=t, s=ampvk.Sampler())
    for bad, text in [({"n": 1.5}, "is not an integer"), ({"n": "x"}, "a number is needed"),
                      ({"n": 2 ** 40}, "does not fit"), ({"v": (1.0,)}, "2 values are needed"),
                      ({"t": o}, "an ampvk.Texture is needed"), ({"s": 1}, "an ampvk.Sampler is needed")]:
        with pytest.raises(ampvk.Error, match=text):
            ampvk.parallel_for_each(2, k, **{**good, **bad})
    closed = ampvk.Texture(shape=(2, 2))
    closed.close()
    with pytest.raises(ampvk.Error, match="closed"):
        ampvk.parallel_for_each(2, k, **{**good, "t": closed})
    with pytest.raises(ampvk.Error, match="filter 'cubic'"):
        ampvk.Sampler("cubic")
    ampvk.parallel_for_each(2, k, **good)
    assert o.tolist() == [1, 1]


def test_closed_kernel():
    k = ampvk.Kernel(params="array_view<int, 1> o", body="o(idx) = 1;")
    k.close()
    with pytest.raises(ampvk.Error, match="closed"):
        ampvk.parallel_for_each(1, k, o=np.zeros(1, np.int32))


def test_accelerators():
    accs = ampvk.accelerators()
    assert accs and all(isinstance(a, ampvk.Accelerator) for a in accs)
    d = ampvk.default_accelerator()
    assert d in accs and d.description
    assert ampvk.filter(np.zeros((2, 2), np.uint8), "invert", device=d.index).tolist() == [[255, 255]] * 2
    assert ampvk.filter(np.zeros((2, 2), np.uint8), "invert", device=d).tolist() == [[255, 255]] * 2
    with pytest.raises(ampvk.Error, match="give an Accelerator"):
        ampvk.filter(np.zeros((2, 2), np.uint8), "invert", device=1.5)
    with pytest.raises(ampvk.Error) as e:
        ampvk.Kernel(params="int a", body="", device=len(accs))
    assert e.value.status_name == "AMP_ERROR_NOT_FOUND" and str(len(accs)) in str(e.value)
