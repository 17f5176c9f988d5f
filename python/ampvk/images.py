"""Images as numpy arrays: checks and conversions, textures, image files.

An image is a numpy array of shape (H, W) or (H, W, C) with C = 1..4 channels in
RGB(A) order (gray, gray + alpha, RGB, RGBA), of dtype uint8, uint16, float16 or
float32. Integer images hold normalized values (255 in uint8 is 1.0, as the
library's unorm textures read them); float images hold the values themselves.
OpenCV users pass bgr=True: the color channels are then taken and given back in
BGR(A) order.

Arrays may be views with any strides (slices, transposes, channel selections) and
read-only: the package copies what is not C-contiguous into a packed buffer before
the pixels go to the device (the device takes a copy anyway), so no input is ever
refused for its layout.
"""
import atexit
import threading
from collections import OrderedDict

import numpy as np

from ._core import Error, accelerator, amp_type, as_buffer, check, check_ptr, fail, ffi, lib, type_name

__all__ = ["Texture", "load", "save", "IMAGE_DTYPES"]

# dtype -> (scalar family of a texture, bits per component, bits of an amp_image)
IMAGE_DTYPES = {
    np.dtype(np.uint8): ("unorm", 8, 8),
    np.dtype(np.uint16): ("unorm", 16, 16),
    np.dtype(np.float16): ("float", 16, 32),
    np.dtype(np.float32): ("float", 32, 32),
}
# textures of integers (normalized=False): kernels read the codes themselves
INTEGER_DTYPES = {
    np.dtype(np.uint8): ("uint", 8), np.dtype(np.uint16): ("uint", 16), np.dtype(np.uint32): ("uint", 32),
    np.dtype(np.int8): ("int", 8), np.dtype(np.int16): ("int", 16), np.dtype(np.int32): ("int", 32),
}
# (scalar family, bits) -> dtype, for arrays read back from textures
_DTYPE_OF = {(s, b): d for d, (s, b, _) in IMAGE_DTYPES.items()}
_DTYPE_OF.update({(s, b): d for d, (s, b) in INTEGER_DTYPES.items()})
_DTYPE_OF[("norm", 8)] = np.dtype(np.int8)
_DTYPE_OF[("norm", 16)] = np.dtype(np.int16)


def image_shape(array, what="image"):
    """(height, width, channels) of an image array; Error for anything else."""
    if not isinstance(array, np.ndarray):
        fail(f"{what}: a numpy array is needed, not {type(array).__name__}")
    if array.ndim == 2:
        h, w = array.shape
        c = 1
    elif array.ndim == 3:
        h, w, c = array.shape
        if not 1 <= c <= 4:
            fail(f"{what}: shape {array.shape} has {c} channels; images have 1 to 4 (H x W x C)")
    else:
        fail(f"{what}: shape {array.shape} is not H x W or H x W x C")
    if h < 1 or w < 1:
        fail(f"{what}: shape {array.shape} is empty")
    return h, w, c


def image_dtype(array, what="image"):
    """The entry of IMAGE_DTYPES for the array's dtype; Error for others."""
    spec = IMAGE_DTYPES.get(array.dtype.newbyteorder("=") if array.dtype.byteorder == ">" else array.dtype)
    if spec is None:
        fail(f"{what}: dtype {array.dtype} is not an image type (uint8, uint16, float16, float32)")
    return spec


def packed(array, bgr=False, dtype=None):
    """The array as a C-contiguous native-endian array (itself where it already is one),
    its colors turned from BGR(A) to RGB(A) when bgr, converted to dtype if given."""
    if bgr and array.ndim == 3 and array.shape[2] >= 3:
        array = np.concatenate([array[..., 2::-1], array[..., 3:]], axis=2)
    want = dtype or (array.dtype.newbyteorder("=") if array.dtype.byteorder == ">" else array.dtype)
    return np.ascontiguousarray(array, dtype=want)


def unpacked(array, bgr):
    """The inverse of packed's channel turn for arrays going back to the user."""
    if bgr and array.ndim == 3 and array.shape[2] >= 3:
        array[..., :3] = array[..., 2::-1].copy()
    return array


def result_shape(h, w, c, like_ndim, like_c):
    """The shape an H x W image of c channels is given back in: 2-D for one channel
    unless the input itself was H x W x 1."""
    if c == 1 and (like_ndim == 2 or like_c != 1):
        return (h, w)
    return (h, w, c)


def texture_desc(h, w, c, scalar, bits):
    """An amp_texture_desc of a 2-D texture of c components of scalar and bits."""
    desc = ffi.new("amp_texture_desc *")
    desc.extent.rank = 2
    desc.extent.dims[0] = h
    desc.extent.dims[1] = w
    desc.type = amp_type(type_name(scalar, c))
    desc.bits_per_scalar_element = bits
    return desc


def _bytes(key):
    _, h, w, c, _, bits = key
    return h * w * (4 if c == 3 else c) * bits // 8  # 3 components are stored as 4


class _Pool:
    """Textures kept for the next use of the same size and type on a view (ampvk.filter's
    and closed Textures'), so that repeated calls allocate no device memory: at most
    `size` of them and `max_bytes` in all, the least recently given back going first.
    The library orders each new use of a texture after the work of the last."""

    def __init__(self, size=8, max_bytes=256 << 20):
        self.size, self.max_bytes = size, max_bytes
        self.count = self.bytes = 0
        self.sizes = {}  # key -> its bytes
        self.lock = threading.Lock()  # ampvk.filter may run on several threads
        self.free = OrderedDict()  # (view, h, w, c, scalar, bits) -> [amp_texture **]

    def take(self, key):
        """A texture of key's size and type: a kept one, else a new one."""
        with self.lock:
            got = self.free.get(key)
            if got:
                self.count -= 1
                self.bytes -= self.sizes[key]
                ptr = got.pop()
                if not got:
                    del self.free[key]
                return ptr
        ptr = ffi.new("amp_texture **")
        ptr[0] = check_ptr(lib.amp_texture_create(key[0], texture_desc(*key[1:])))
        return ptr

    def give(self, key, ptr):
        """Keeps a texture no longer used (or destroys it, or older ones, over the limits)."""
        size = self.sizes.get(key)
        if size is None:
            size = self.sizes[key] = _bytes(key)
        with self.lock:
            if size > self.max_bytes:
                lib.amp_texture_destroy(ptr)
                return
            got = self.free.get(key)
            if got is None:
                got = self.free[key] = []
            else:
                self.free.move_to_end(key)
            got.append(ptr)
            self.count += 1
            self.bytes += size
            while self.count > self.size or self.bytes > self.max_bytes:
                old_key, old = next(iter(self.free.items()))
                lib.amp_texture_destroy(old.pop())
                self.count -= 1
                self.bytes -= self.sizes[old_key]
                if not old:
                    del self.free[old_key]

    def clear(self):
        """Destroys every kept texture."""
        with self.lock:
            for ptrs in self.free.values():
                for p in ptrs:
                    lib.amp_texture_destroy(p)
            self.free.clear()
            self.count = self.bytes = 0


pool = _Pool()
atexit.register(pool.clear)  # before the library's own exit handlers


class Texture:
    """An image kept on an accelerator: a 2-D texture.

    ``Texture(array, device=None, bgr=False, normalized=True)`` uploads an image array
    (see the module overview; integer arrays are unorm textures whose kernels and
    filters read 0..1). ``normalized=False`` makes integer arrays (uint8/16/32,
    int8/16/32) int or uint textures for kernels that want the codes.
    ``Texture(shape=(H, W, C), dtype=np.float32)`` makes one of zeros.

    ``.filter(chain, **params)`` runs filters into a new Texture on the device and
    ``.numpy()`` copies the pixels back, so a chain of calls moves the pixels once
    each way. Pass a Texture to ``parallel_for_each`` for a texture parameter.
    ``.close()`` (or a ``with`` block) frees the device memory at once; any use
    after that raises Error (AMP_ERROR_INVALID_STATE).
    """

    def __init__(self, array=None, *, shape=None, dtype=None, device=None, bgr=False, normalized=True):
        self._handle = None
        self._bgr = bool(bgr)
        acc = accelerator(device)
        if array is not None:
            if shape is not None:
                fail("Texture: give an array or a shape, not both")
            if dtype is not None:
                fail("Texture: dtype= is for a texture made from a shape; an array gives its own")
            h, w, c = image_shape(array, "Texture")
            native = array.dtype.newbyteorder("=") if array.dtype.byteorder == ">" else array.dtype
            scalar, bits = self._format(native, normalized)
            data = packed(array, bgr, _DTYPE_OF[(scalar, bits)])
        else:
            if shape is None:
                fail("Texture: give an array or a shape")
            if (not isinstance(shape, (tuple, list)) or len(shape) not in (2, 3)
                    or not all(isinstance(d, (int, np.integer)) and d >= 0 for d in shape)):
                fail(f"Texture: shape={shape!r} is not (H, W) or (H, W, C) of sizes")
            h, w, c = image_shape(np.empty(tuple(shape), dtype=np.uint8), "Texture")
            scalar, bits = self._format(np.dtype(np.float32 if dtype is None else dtype), normalized)
            data = None
        self._ndim = 2 if (array is not None and array.ndim == 2) or (shape is not None and len(shape) == 2) else 3
        self._make(acc, h, w, c, scalar, bits, data)

    @staticmethod
    def _format(dtype, normalized):
        spec = IMAGE_DTYPES.get(dtype) if normalized or dtype.kind == "f" else INTEGER_DTYPES.get(dtype)
        if spec is None:
            fail(f"Texture: dtype {dtype} is not a texture type (uint8, uint16, float16, float32; with "
                 "normalized=False also int8, int16, int32, uint32)")
        return spec[0], spec[1]

    def _make(self, acc, h, w, c, scalar, bits, data):
        key = (acc.view, h, w, c, scalar, bits)
        if data is None:  # a new texture is zeros; one from the pool is not
            ptr = ffi.new("amp_texture **", check_ptr(lib.amp_texture_create(acc.view, texture_desc(*key[1:]))))
        else:
            ptr = pool.take(key)
            try:
                check(lib.amp_texture_copy_from_host(ptr[0], ffi.NULL, as_buffer(data), data.nbytes))
            except Error:
                lib.amp_texture_destroy(ptr)
                raise
        self._set(ptr, key, acc)

    def _set(self, ptr, key, acc):
        self._ptr = ptr
        self._handle = ptr[0]
        self._key = key
        self._accelerator = acc
        _, self._height, self._width, self._channels, self._scalar, self._bits = key

    @classmethod
    def _adopt(cls, ptr, key, acc, ndim, bgr):
        """A Texture owning a texture of the pool (filter results)."""
        t = cls.__new__(cls)
        t._bgr = bgr
        t._ndim = ndim
        t._set(ptr, key, acc)
        return t

    @property
    def handle(self):
        """The amp_texture pointer (cffi); Error once the texture is closed."""
        if self._handle is None:
            fail("the Texture is closed", lib.AMP_ERROR_INVALID_STATE)
        return self._handle

    @property
    def shape(self):
        """(H, W, C), or (H, W) for a one-channel texture made from a 2-D array."""
        return result_shape(self._height, self._width, self._channels, self._ndim, self._channels)

    @property
    def dtype(self):
        """The numpy dtype ``.numpy()`` gives: the texture's own storage."""
        return _DTYPE_OF[(self._scalar, self._bits)]

    @property
    def device(self):
        """The Accelerator holding the texture."""
        return self._accelerator

    @property
    def closed(self):
        """True once ``close()`` ran."""
        return self._handle is None

    def filter(self, chain=None, *, dtype=None, **params):
        """Runs filters (the syntax of ``ampvk.filter``) into a new Texture on the same
        device, of dtype (default: this texture's); nothing moves to or from the host."""
        from .filters import run_chain, parse
        return run_chain(self, parse(chain, params), dtype)

    def numpy(self, out=None):
        """Copies the pixels back into a new array (or into out: a C-contiguous array of
        the texture's shape and dtype), waiting for the work that writes them."""
        shape = self.shape
        if out is None:
            out = np.empty(shape, self.dtype)
        elif (not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != self.dtype
              or not out.flags.c_contiguous or not out.flags.writeable):
            fail(f"numpy(out=): a writable C-contiguous array of shape {shape} and dtype {self.dtype} is needed")
        check(lib.amp_texture_copy_to_host(self.handle, ffi.NULL, ffi.from_buffer(out, require_writable=True),
                                           out.nbytes))
        return unpacked(out, self._bgr)

    def __array__(self, dtype=None):
        """np.asarray(texture): the pixels, as ``numpy()`` gives them."""
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def close(self):
        """Gives the texture back (after the work that uses it, the library's pool of
        textures keeps a few for the next of the same size); closing twice is harmless."""
        if self._handle is not None:
            self._handle = None
            pool.give(self._key, self._ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            try:
                self.close()
            except Exception:  # the interpreter is shutting down: the pool may be gone
                pass

    def __repr__(self):
        state = "closed" if self.closed else self._accelerator.description
        return f"<ampvk.Texture {self.shape} {self.dtype} ({self._scalar} {self._bits}-bit) on {state}>"


# ---- image files ----

def _image_to_array(img, bgr):
    dtype = {8: np.uint8, 16: np.uint16, 32: np.float32}[img.bits]
    h, w, c = img.height, img.width, img.channels
    raw = np.frombuffer(ffi.buffer(img.pixels, img.stride * h), dtype=np.uint8)
    rows = raw.reshape(h, img.stride)[:, : w * c * np.dtype(dtype).itemsize]
    out = rows.copy().view(dtype).reshape(result_shape(h, w, c, 3, 0))
    return unpacked(out, bgr)


def image_struct(array, what, bgr=False):
    """An amp_image over the array's pixels (a packed copy where needed) and the array
    that keeps them alive."""
    h, w, c = image_shape(array, what)
    _, _, bits = image_dtype(array, what)
    data = packed(array, bgr, {8: np.uint8, 16: np.uint16, 32: np.float32}[bits])
    img = ffi.new("amp_image *")
    img.width, img.height, img.channels, img.bits = w, h, c, bits
    img.stride = w * c * data.dtype.itemsize
    img.pixels = ffi.cast("void *", as_buffer(data))
    return img, data


def load(path, *, channels=0, bits=0, bgr=False, ignore_orientation=False, max_pixels=0):
    """Reads an image file of any format the library reads (PNG, JPEG, WebP, OpenEXR,
    TIFF, Radiance HDR, BMP, TGA, PSD; told apart by content) into a new array.

    Returns H x W (one channel) or H x W x C (RGB(A), or BGR(A) with bgr=True) of
    uint8, uint16 (16-bit files) or float32 (HDR, OpenEXR, float TIFF).
    channels=1..4 and bits=8/16 convert as ``amp_image_load`` converts.
    ignore_orientation=True keeps a JPEG's or TIFF's pixels as stored (by default they
    are turned as the file's orientation says, as cv2.imread turns them).
    max_pixels=n refuses a file whose header claims more than n pixels (ampvk.Error,
    before anything is allocated): for untrusted files.
    """
    desc = ffi.new("amp_image_load_desc *")
    desc.channels, desc.bits, desc.ignore_orientation = channels, bits, bool(ignore_orientation)
    desc.max_pixels = max_pixels
    img = ffi.new("amp_image *")
    check(lib.amp_image_load(str(path).encode(), desc, img))
    try:
        return _image_to_array(img, bgr)
    finally:
        lib.amp_image_free(img)


_COMPRESSIONS = {None: "DEFAULT", "default": "DEFAULT", "none": "NONE", "rle": "RLE", "deflate": "DEFLATE",
                 "zip": "DEFLATE", "lzw": "LZW", "piz": "PIZ"}


def save(path, array, *, bits=0, quality=0, png_level=0, subsampling=0, compression=None, lossless=False,
         format=None, bgr=False):
    """Writes an image array to path in the format of its extension (or format=
    "png", "jpeg", "webp", "tiff", "exr", "hdr", "bmp", "tga"): every format the
    library writes, with its options (bits, JPEG/WebP quality, png_level 1..12,
    JPEG subsampling 444/422/420, TIFF/EXR compression "none", "rle", "deflate",
    "lzw", "piz", WebP lossless). float16 arrays are written as float32 images.
    The file appears only when complete.
    """
    img, keep = image_struct(array, "save", bgr)
    desc = ffi.new("amp_image_save_desc *")
    if format is not None:
        names = {ffi.string(lib.amp_image_format_name(f)).decode(): f for f in range(1, 10)
                 if lib.amp_image_format_name(f) != ffi.NULL}
        names["jpg"], names["tif"] = names.get("jpeg"), names.get("tiff")
        if format not in names:
            fail(f"save: format {format!r} is not one of {', '.join(sorted(names))}")
        desc.format = names[format]
    comp = _COMPRESSIONS.get(compression)
    if comp is None:
        fail(f"save: compression {compression!r} is not one of none, rle, deflate, lzw, piz")
    desc.compression = getattr(lib, "AMP_IMAGE_COMPRESSION_" + comp)
    desc.bits, desc.quality, desc.png_level, desc.subsampling, desc.lossless = (
        bits, quality, png_level, subsampling, bool(lossless))
    check(lib.amp_image_save(str(path).encode(), img, desc))
    del keep
