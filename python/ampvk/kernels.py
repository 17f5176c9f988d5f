"""GLSL kernels and parallel_for_each over numpy arrays, textures and samplers.

An array argument becomes an array_view over the array's own memory (no copy on the
host side): the library uploads what the kernel reads and, after the call, the
arrays the kernel may write are synchronized, so they hold the results when
parallel_for_each returns. The array must match the parameter's declaration: for
``array_view<T, N>`` a dtype of T's scalar (int: int32, uint: uint32, float, norm and
unorm: float32, double: float64) and N dimensions, plus a last dimension of T's
component count for a short vector (``array_view<float_4, 2>``: H x W x 4); a
struct's array is any dtype whose items are the struct's bytes.

Layouts: arrays a kernel only reads (``array_view<const T, N>``) may be views of any
strides or read-only; a packed copy is uploaded. An array a kernel may write must
be writable; where it is not C-contiguous (a slice, a transpose) the kernel works
on a packed copy that is written back into it after the call, so the caller sees
the results in place either way.
"""
import re

import numpy as np

from ._core import SCALAR_DTYPES, accelerator, as_buffer, check, check_ptr, fail, ffi, lib
from .images import Texture

__all__ = ["Kernel", "Sampler", "parallel_for_each"]

# GLSL's own vector types as scalar parameters (vec4, ivec2 ...): their values' dtype
_GLSL_VECTOR = re.compile(r"^(|i|u|d)vec([234])$")
_GLSL_SCALARS = {"": np.float32, "i": np.int32, "u": np.uint32, "d": np.float64}
_FILTERS = {"linear": "AMP_FILTER_LINEAR", "point": "AMP_FILTER_POINT"}
_ADDRESSES = {"clamp": "AMP_ADDRESS_CLAMP", "wrap": "AMP_ADDRESS_WRAP", "mirror": "AMP_ADDRESS_MIRROR",
              "border": "AMP_ADDRESS_BORDER"}


class Sampler:
    """A sampler for ``texture_view<const T, N>`` parameters: filter "linear" (default)
    or "point", address "clamp" (default), "wrap", "mirror" or "border" with
    border_color (4 floats)."""

    def __init__(self, filter="linear", address="clamp", border_color=(0.0, 0.0, 0.0, 0.0)):
        if filter not in _FILTERS:
            fail(f"Sampler: filter {filter!r} is not linear or point")
        if address not in _ADDRESSES:
            fail(f"Sampler: address {address!r} is not clamp, wrap, mirror or border")
        color = [float(v) for v in border_color]
        if len(color) != 4:
            fail(f"Sampler: border_color has {len(color)} values, not 4")
        self.filter, self.address, self.border_color = filter, address, tuple(color)

    def _fill(self, s):
        s.filter = getattr(lib, _FILTERS[self.filter])
        s.address = getattr(lib, _ADDRESSES[self.address])
        s.border_color = list(self.border_color)

    def __repr__(self):
        return f"ampvk.Sampler({self.filter!r}, {self.address!r}, {self.border_color})"


class _Param:
    __slots__ = ("name", "kind", "type", "type_name", "rank", "is_const", "size", "scalar", "components")


def _strings(values, what):
    if values is None:
        return ffi.NULL, 0, []
    if isinstance(values, str):
        values = [values]
    keep = [ffi.new("char[]", str(v).encode()) for v in values]
    arr = ffi.new("const char *[]", keep)
    keep.append(arr)
    return arr, len(values), keep


class Kernel:
    """A GLSL compute kernel, compiled now for an accelerator.

    ``Kernel(params="array_view<const float, 1> a, array_view<float, 1> b",
    body="b(idx) = 2 * a(idx);")``: params in C++ AMP's words and the body's statements
    (idx is the thread's index, domain the extent), as ampvk/kernel.h describes; or
    source= (GLSL defining ``void kernel(index_N idx)``) or file= (a file of it).
    rank: the compute domain's rank (default 1, or the tile's); tile: tile sizes for a
    tiled kernel; name: the name compile errors use; declarations: GLSL before the
    parameters (structs); defines: "NAME" or "NAME=VALUE" strings; include_dirs:
    folders for #include; device: the accelerator.

    Errors: ampvk.Error with AMP_ERROR_COMPILE and the line, or
    AMP_ERROR_INVALID_ARGUMENT for a malformed parameter list.
    """

    def __init__(self, params=None, body=None, *, source=None, file=None, name=None, declarations=None, rank=None,
                 tile=None, defines=None, include_dirs=None, device=None):
        self._handle = None
        keep = []

        def text(v, what):
            if v is None:
                return ffi.NULL
            if not isinstance(v, str):
                fail(f"Kernel: {what} must be a string, not {type(v).__name__}")
            c = ffi.new("char[]", v.encode())
            keep.append(c)
            return c

        desc = ffi.new("amp_kernel_desc *")
        desc.params = text(params, "params")
        desc.body = text(body, "body")
        desc.source = text(source, "source")
        desc.file = text(None if file is None else str(file), "file")
        desc.name = text(name, "name")
        desc.declarations = text(declarations, "declarations")
        if tile is not None:
            tile = [int(t) for t in (tile if isinstance(tile, (list, tuple)) else [tile])]
            if not 1 <= len(tile) <= 3:
                fail(f"Kernel: tile has {len(tile)} sizes; 1 to 3")
            desc.tile = tile + [0] * (3 - len(tile))
        desc.rank = int(rank) if rank is not None else (len(tile) if tile else 1)
        desc.defines, desc.define_count, k1 = _strings(defines, "defines")
        desc.include_dirs, desc.include_dir_count, k2 = _strings(include_dirs, "include_dirs")
        keep += k1 + k2
        self._accelerator = accelerator(device)
        self._handle = check_ptr(lib.amp_kernel_create(self._accelerator.view, desc))
        self._ptr = ffi.new("amp_kernel **", self._handle)
        self.rank = desc.rank
        self.params = {}
        info = ffi.new("amp_kernel_param_info *")
        for i in range(lib.amp_kernel_param_count(self._handle)):
            check(lib.amp_kernel_param(self._handle, i, info))
            p = _Param()
            p.name = ffi.string(info.name).decode()
            p.kind = info.kind
            p.type = info.type
            p.type_name = ffi.string(info.type_name).decode()
            p.rank, p.is_const, p.size = info.rank, bool(info.is_const), info.size
            p.scalar = lib.amp_type_scalar(info.type)
            p.components = lib.amp_type_components(info.type)
            self.params[p.name] = p

    @property
    def glsl(self):
        """The generated GLSL source (for debugging)."""
        return ffi.string(lib.amp_kernel_glsl(self._live())).decode()

    @property
    def device(self):
        """The Accelerator the kernel was compiled for."""
        return self._accelerator

    def _live(self):
        if self._handle is None:
            fail("the Kernel is closed", lib.AMP_ERROR_INVALID_STATE)
        return self._handle

    def close(self):
        """Frees the kernel after its dispatches in flight."""
        if self._handle is not None:
            self._handle = None
            lib.amp_kernel_destroy(self._ptr)

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            self.close()

    def __repr__(self):
        params = ", ".join(f"{p.type_name} {n}" for n, p in self.params.items())
        return f"<ampvk.Kernel rank {self.rank} ({params})>"


def _extent(extent, rank=None):
    dims = [int(extent)] if isinstance(extent, (int, np.integer)) else list(extent) if isinstance(
        extent, (list, tuple)) else None
    if dims is None or not 1 <= len(dims) <= 3 or any(not isinstance(d, (int, np.integer)) for d in dims):
        fail(f"extent {extent!r}: an int or a tuple of 1 to 3 ints is needed")
    e = ffi.new("amp_extent *")
    e.rank = len(dims)
    for i, d in enumerate(dims):
        e.dims[i] = int(d)
    return e


class _Call:
    """The arguments of one parallel_for_each and what must happen after it."""

    def __init__(self):
        self.keep = []
        self.views = []       # amp_array_view ** to destroy
        self.written = []     # (view **, array the user gave, packed copy or None)

    def view_arg(self, p, array):
        what = f"argument {p.name!r} ({'const ' if p.is_const else ''}{p.type_name}, rank {p.rank})"
        if not isinstance(array, np.ndarray):
            fail(f"{what}: a numpy array is needed, not {type(array).__name__}")
        struct = p.type == lib.AMP_TYPE_STRUCT
        if struct:
            size = p.size or array.dtype.itemsize
            if array.ndim != p.rank or array.dtype.itemsize != size:
                fail(f"{what}: an array of {p.rank} dimensions of {size}-byte items is needed, not shape "
                     f"{array.shape} of {array.dtype} ({array.dtype.itemsize} bytes)")
            dims = array.shape
        else:
            want = SCALAR_DTYPES[p.scalar]
            shape_ok = array.ndim == p.rank + (p.components > 1) and (
                p.components == 1 or array.shape[-1] == p.components)
            if not shape_ok or array.dtype.newbyteorder("=") != want:
                vec = f" x {p.components}" if p.components > 1 else ""
                fail(f"{what}: an array of {p.rank} dimensions{vec} of {want} is needed, not shape {array.shape} "
                     f"of {array.dtype}")
            dims = array.shape[: p.rank]
            size = 0
        if any(d < 1 for d in dims):
            fail(f"{what}: shape {array.shape} is empty")
        e = _extent(tuple(dims))
        if p.is_const:
            data = array if array.flags.c_contiguous and array.dtype.isnative else np.ascontiguousarray(
                array, array.dtype.newbyteorder("="))
            v = lib.amp_array_view_create_const(e[0], p.type, size, as_buffer(data))
            copy = None
        else:
            if not array.flags.writeable:
                fail(f"{what}: the array is read-only but the kernel may write it (declare it const, or pass a "
                     "writable array)")
            direct = array.flags.c_contiguous and array.dtype.isnative
            data = array if direct else np.ascontiguousarray(array, array.dtype.newbyteorder("="))
            v = lib.amp_array_view_create(e[0], p.type, size, ffi.from_buffer(data, require_writable=True))
            copy = None if direct else data
        ptr = ffi.new("amp_array_view **", check_ptr(v))
        self.keep.append(data)
        self.views.append(ptr)
        if not p.is_const:
            self.written.append((ptr, array, copy))
        return ptr[0]

    def scalar_arg(self, a, p, value):
        what = f"argument {p.name!r} ({p.type_name})"
        if p.type == lib.AMP_TYPE_STRUCT or p.components > 1:
            if isinstance(value, (bytes, bytearray, memoryview)):
                raw = bytes(value)
            elif p.type == lib.AMP_TYPE_STRUCT and _GLSL_VECTOR.match(p.type_name):
                m = _GLSL_VECTOR.match(p.type_name)
                vals = np.asarray(value, dtype=_GLSL_SCALARS[m.group(1)])
                if vals.shape != (int(m.group(2)),):
                    fail(f"{what}: {m.group(2)} values are needed, not {value!r}")
                raw = vals.tobytes()
            elif p.type == lib.AMP_TYPE_STRUCT:
                raw = np.asarray(value).tobytes()
            else:
                vals = np.asarray(value, dtype=SCALAR_DTYPES[p.scalar])
                if vals.shape != (p.components,):
                    fail(f"{what}: {p.components} values are needed, not {value!r}")
                raw = vals.tobytes()
            if p.size and len(raw) != p.size:
                fail(f"{what}: {p.size} bytes are needed, not {len(raw)}")
            buf = ffi.new("char[]", raw)
            self.keep.append(buf)
            a.kind = lib.AMP_ARG_BYTES
            a.value.bytes.ptr = buf
            a.value.bytes.size = len(raw)
            return
        if isinstance(value, np.ndarray) and value.shape == ():
            value = value.item()
        if not isinstance(value, (int, float, np.integer, np.floating)):
            fail(f"{what}: a number is needed, not {type(value).__name__}")
        s = p.scalar
        try:
            if s == lib.AMP_SCALAR_INT:
                if value != int(value):
                    fail(f"{what}: {value!r} is not an integer")
                a.kind, a.value.i = lib.AMP_ARG_INT, int(value)
            elif s == lib.AMP_SCALAR_UINT:
                if value != int(value):
                    fail(f"{what}: {value!r} is not an integer")
                a.kind, a.value.u = lib.AMP_ARG_UINT, int(value)
            elif s == lib.AMP_SCALAR_DOUBLE:
                a.kind, a.value.d = lib.AMP_ARG_DOUBLE, float(value)
            else:
                a.kind, a.value.f = lib.AMP_ARG_FLOAT, float(value)
        except OverflowError:
            fail(f"{what}: {value!r} does not fit a 32-bit {p.type_name}")

    def finish(self, ran):
        """Synchronizes the written views and copies packed results back (after a
        dispatch that ran), then frees the views."""
        try:
            for ptr, array, copy in self.written if ran else ():
                check(lib.amp_array_view_synchronize(ptr[0]))
                if copy is not None:
                    array[...] = copy
        finally:
            for ptr in self.views:
                lib.amp_array_view_destroy(ptr)


def parallel_for_each(extent, kernel, *, device=None, **args):
    """Runs kernel once per element of extent (an int or a tuple of 1 to 3 ints, rank
    the kernel's) with its parameters bound by name from the keywords:

      array_view / array parameters   numpy arrays (see the module overview)
      texture parameters              ampvk.Texture
      sampler parameters              ampvk.Sampler
      scalar parameters               numbers; short vectors a sequence of values;
                                      structs bytes or a numpy structured scalar

    Returns after the arrays the kernel may write hold its results (the call
    synchronizes them); textures stay on the device. device: the accelerator
    (default: the kernel's). A missing, extra or mismatched argument raises
    ampvk.Error naming it, and nothing runs.
    """
    if not isinstance(kernel, Kernel):
        fail(f"parallel_for_each: kernel must be an ampvk.Kernel, not {type(kernel).__name__}")
    handle = kernel._live()
    e = _extent(extent)
    for name in args:
        if name not in kernel.params:
            fail(f"parallel_for_each: argument {name!r} is not a parameter of the kernel "
                 f"({', '.join(kernel.params) or 'none'})", lib.AMP_ERROR_ARGUMENT_MISMATCH)
    view = ffi.NULL if device is None else accelerator(device).view
    call = _Call()
    ran = False
    cargs = ffi.new("amp_arg[]", max(len(args), 1))
    try:
        for i, (name, value) in enumerate(args.items()):
            p = kernel.params[name]
            a = cargs[i]
            cname = ffi.new("char[]", name.encode())
            call.keep.append(cname)
            a.name = cname
            if p.kind == lib.AMP_PARAM_VIEW:
                a.kind = lib.AMP_ARG_VIEW
                a.value.view = call.view_arg(p, value)
            elif p.kind in (lib.AMP_PARAM_TEXTURE, lib.AMP_PARAM_WRITEONLY_TEXTURE, lib.AMP_PARAM_SAMPLED_TEXTURE):
                if not isinstance(value, Texture):
                    fail(f"argument {name!r} ({p.type_name} texture): an ampvk.Texture is needed, not "
                         f"{type(value).__name__}")
                a.kind = lib.AMP_ARG_TEXTURE
                a.value.texture = value.handle
            elif p.kind == lib.AMP_PARAM_SAMPLER:
                if not isinstance(value, Sampler):
                    fail(f"argument {name!r} (sampler): an ampvk.Sampler is needed, not {type(value).__name__}")
                a.kind = lib.AMP_ARG_SAMPLER
                value._fill(a.value.sampler)
            else:
                call.scalar_arg(a, p, value)
        check(lib.amp_parallel_for_each(view, e[0], handle, cargs, len(args)))
        ran = True
    finally:
        call.finish(ran)
