"""The built-in image filters: ampvk.filter over numpy arrays and textures.

The chain syntax is the ampvk tool's, parsed by the library
(``amp_image_filter_parse_chain``); the filter list in ``help(ampvk.filter)`` is
written from the library's own table (``amp_image_filter_describe``).
"""
import threading
from collections import OrderedDict

import numpy as np

from ._core import accelerator, check, fail, ffi, lib
from .images import IMAGE_DTYPES, Texture, image_dtype, image_shape, packed, pool, result_shape, unpacked

__all__ = ["filter", "filter_names", "describe_filters"]

MAX_FILTERS = 64
# chain text -> (amp_image_filter[], count, {(h, w, c): the chain's output (h, w, c)}),
# the 256 parsed last
_parsed = OrderedDict()
_parsed_lock = threading.Lock()
# keyword spellings of the C fields whose keys in the chain syntax differ
_KEY_ALIASES = {"signed_output": "signed", "threshold_type": "type"}


def filter_names():
    """The names of the built-in filters, in the library's order."""
    out = []
    for op in range(lib.AMP_IMAGE_OP_COUNT):
        out.append(ffi.string(lib.amp_image_op_name(op)).decode())
    return out


def describe_filters():
    """Each filter's syntax, one a line ("gaussian:radius=INT,sigma=FLOAT,..."), from
    the library's table of keys."""
    lines = []
    for op in range(lib.AMP_IMAGE_OP_COUNT):
        n = lib.amp_image_filter_describe(op, ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        lib.amp_image_filter_describe(op, buf, n + 1)
        lines.append(ffi.string(buf).decode())
    return "\n".join(lines)


def _value_text(key, value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "/".join(_value_text(key, v) for v in value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(float(value)) if isinstance(value, (float, np.floating)) else str(int(value))
    if isinstance(value, str):
        return value
    fail(f"filter: {key}={value!r} is not a number, a name or a list of numbers")


def chain_text(chain, params):
    """The chain as the library parses it: chain (a string, or a list of strings) with
    keyword parameters appended to its only filter."""
    if chain is None:
        fail("filter: no filter given (e.g. \"gaussian:sigma=2\")")
    if not isinstance(chain, str):
        if not isinstance(chain, (list, tuple)) or not all(isinstance(c, str) for c in chain):
            fail(f"filter: the chain must be a string or a list of strings, not {type(chain).__name__}")
        chain = " ".join(chain)
    if params:
        specs = chain.split()
        if len(specs) != 1:
            fail(f"filter: keyword parameters ({', '.join(params)}) need a chain of one filter, not {len(specs)}")
        extra = ",".join(f"{_KEY_ALIASES.get(k, k)}={_value_text(k, v)}" for k, v in params.items())
        chain = specs[0] + ("," if ":" in specs[0] else ":") + extra
    return chain


def parse(chain, params):
    """The library's filters for a chain and keyword parameters: (array, count, the
    cache of its output shapes)."""
    text = chain_text(chain, params)
    got = _parsed.get(text)
    if got is not None:
        return got
    filters = ffi.new("amp_image_filter[]", MAX_FILTERS)
    count = ffi.new("int *")
    check(lib.amp_image_filter_parse_chain(text.encode(), filters, MAX_FILTERS, count))
    with _parsed_lock:
        got = _parsed.setdefault(text, (filters, count[0], {}))
        if len(_parsed) > 256:
            _parsed.popitem(last=False)
    return got


def _output(filters, count, h, w, c):
    extent = ffi.new("amp_extent *")
    src = ffi.new("amp_extent *", {"rank": 2, "dims": [h, w, 0]})
    check(lib.amp_image_filter_output_extent(filters, count, src[0], extent))
    return extent.dims[0], extent.dims[1], lib.amp_image_filter_output_components(filters, count, c)


def _out_dtype(dtype, default):
    d = np.dtype(dtype) if dtype is not None else default
    if d not in IMAGE_DTYPES:
        fail(f"filter: dtype={d} is not an image type (uint8, uint16, float16, float32)")
    return d


def filter(image, chain=None, *, device=None, bgr=False, dtype=None, **params):
    """Runs built-in filters (OpenCV's, on the accelerator) on an image.

    image: a numpy array (H x W or H x W x C, C 1..4, uint8, uint16, float16 or
    float32; RGB(A), or BGR(A) with bgr=True) or a Texture (then the result is a new
    Texture on its device). chain: filters as the ampvk tool takes them, separated
    by spaces, "gaussian:sigma=2 sharpen:amount=0.5", or a list of such strings; or
    one filter's name with its parameters as keywords: filter(a, "gaussian", sigma=2).
    dtype: the result's dtype (default: the input's; uint8 in, float32 out works).
    device: the accelerator (default: the default one; an Accelerator, index or name).

    Returns a new array of the chain's size (resizes) and channels (grayscale of an
    RGB image gives H x W). Values are normalized as in the library (uint8 255 is
    1.0); a filter's parameters in full-scale units (threshold=0.5) use that scale.
    Errors: ampvk.Error with the library's message naming the filter and value.

    The filters and their parameters (ampvk/filter.h has what each does):
    """
    if isinstance(image, Texture):
        parsed = parse(chain, params)
        if device is not None and accelerator(device) != image.device:
            fail("filter: a Texture is filtered on its own device; device= names another")
        return run_chain(image, parsed, dtype)
    plan = None
    if not params and type(image) is np.ndarray:
        key = (chain, image.shape, image.dtype, dtype, device, bgr)
        try:
            plan = _plans.get(key)
        except TypeError:  # an unhashable argument: no plan kept
            key = None
    if plan is None:
        plan = _plan(image, chain, params, device, bgr, dtype)
        if not params and type(image) is np.ndarray and key is not None:
            if len(_plans) >= 256:
                _plans.clear()
            _plans[key] = plan
    filters, count, src_key, dst_key, out_shape, out_dtype, direct = plan
    data = image if direct and image.flags.c_contiguous else packed(image, bgr)
    src = pool.take(src_key)
    dst = None
    try:
        check(lib.amp_texture_copy_from_host(src[0], ffi.NULL, ffi.from_buffer(data), data.nbytes))
        dst = pool.take(dst_key)
        check(lib.amp_image_filter_chain(filters, count, src[0], dst[0]))
        out = np.empty(out_shape, out_dtype)
        check(lib.amp_texture_copy_to_host(dst[0], ffi.NULL, ffi.from_buffer(out, require_writable=True),
                                           out.nbytes))
    except BaseException:
        lib.amp_texture_destroy(src)
        if dst is not None:
            lib.amp_texture_destroy(dst)
        raise
    pool.give(src_key, src)
    pool.give(dst_key, dst)
    return unpacked(out, bgr) if bgr else out


# (chain, shape, dtype, dtype=, device=, bgr=) -> what filter() does with such an image
_plans = {}


def _plan(image, chain, params, device, bgr, dtype):
    """Checks a call of filter() and works out its textures and result: (filters, count,
    source texture key, destination key, result shape, result dtype, whether the
    image's memory goes up as it is)."""
    h, w, c = image_shape(image, "filter")
    spec = image_dtype(image, "filter")
    filters, count, shapes = parse(chain, params)
    native = image.dtype.isnative
    out_dtype = image.dtype if dtype is None and native else _out_dtype(dtype, image.dtype.newbyteorder("="))
    ospec = IMAGE_DTYPES[out_dtype]
    out = shapes.get((h, w, c))
    if out is None:
        out = shapes[(h, w, c)] = _output(filters, count, h, w, c)
    oh, ow, oc = out
    view = accelerator(device).view
    return (filters, count, (view, h, w, c, spec[0], spec[1]), (view, oh, ow, oc, ospec[0], ospec[1]),
            result_shape(oh, ow, oc, image.ndim, c), out_dtype, native and not bgr)


def run_chain(texture, parsed, dtype):
    """The chain (as parse gives it) from a Texture into a new Texture on its device."""
    filters, count, shapes = parsed
    src = texture.handle
    h, w, c = texture._height, texture._width, texture._channels
    if texture._scalar not in ("unorm", "float"):
        fail(f"filter: a {texture._scalar} texture cannot be filtered (unorm or float textures only)")
    out_dtype = texture.dtype if dtype is None else _out_dtype(dtype, None)
    oscalar, obits, _ = IMAGE_DTYPES[out_dtype]
    out_shape = shapes.get((h, w, c))
    if out_shape is None:
        out_shape = shapes[(h, w, c)] = _output(filters, count, h, w, c)
    oh, ow, oc = out_shape
    acc = texture._accelerator
    key = (acc.view, oh, ow, oc, oscalar, obits)
    ndim = 2 if oc == 1 and (texture._ndim == 2 or c != 1) else 3
    t = Texture._adopt(pool.take(key), key, acc, ndim, texture._bgr)
    check(lib.amp_image_filter_chain(filters, count, src, t._handle))
    return t


def release_cached_textures():
    """Frees the textures kept for the next call of the same size (ampvk.filter's, and
    closed Textures')."""
    _plans.clear()
    pool.clear()


def _document():
    lines = ["    " + line for line in describe_filters().splitlines()]
    filter.__doc__ += "\n" + "\n".join(lines) + (
        "\n\n    INT and FLOAT are numbers, V[/V/V/V] one value or four (per channel);"
        "\n    bool keywords (signed) take True/False, lists (border_value) a sequence.\n")


_document()
