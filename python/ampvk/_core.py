"""The C library through cffi: errors, accelerators and the numpy dtype tables.

Every other module of the package calls the library through `lib` and `check` here.
"""
import threading

import numpy as np

from ._ampvk import ffi, lib

__all__ = ["Error", "Accelerator", "accelerators", "default_accelerator", "validation_message_count",
           "log_messages"]


class Error(Exception):
    """A failing call of the C library, or arguments it would refuse.

    ``str(error)`` is the library's message (``amp_last_error()``), which names the
    problem with its numbers; ``status`` is the ``amp_status`` code (an int, 0 never)
    and ``status_name`` its name ("AMP_ERROR_INVALID_ARGUMENT", ...). Arguments that
    the package itself refuses before any C call (a wrong dtype or shape, a closed
    texture) carry AMP_ERROR_INVALID_ARGUMENT or AMP_ERROR_INVALID_STATE.
    """

    def __init__(self, message, status):
        super().__init__(message)
        self.status = int(status)
        self.status_name = ffi.string(lib.amp_status_name(self.status)).decode()


def fail(message, status=lib.AMP_ERROR_INVALID_ARGUMENT):
    """Raises Error(message, status) for arguments refused before any C call."""
    raise Error(message, status)


def last_error():
    """The Error of the library's last failing call on this thread."""
    return Error(ffi.string(lib.amp_last_error()).decode(errors="replace"), lib.amp_last_status())


def check(status):
    """Raises the library's last error when status is not AMP_OK."""
    if status != 0:
        raise Error(ffi.string(lib.amp_last_error()).decode(errors="replace"), status)


def check_ptr(ptr):
    """Returns ptr, or raises the library's last error when it is NULL."""
    if ptr == ffi.NULL:
        raise last_error()
    return ptr


# ---- log messages (validation messages among them) ----

_log = []
_log_lock = threading.Lock()


@ffi.def_extern()
def _ampvk_log(user, level, status, message):
    with _log_lock:
        _log.append(ffi.string(message).decode(errors="replace"))
        del _log[:-200]


lib.amp_set_log_callback(lib._ampvk_log, ffi.NULL, lib.AMP_LOG_WARN)


def log_messages(clear=False):
    """The library's recent error, warning and validation messages (at most 200), oldest
    first; clear=True forgets them."""
    with _log_lock:
        out = list(_log)
        if clear:
            _log.clear()
    return out


def validation_message_count():
    """Vulkan validation messages seen since the process started (0 unless the
    environment has AMPVK_VALIDATION=1, as the tests run)."""
    return lib.amp_validation_message_count()


# ---- accelerators ----

class Accelerator:
    """An accelerator: a Vulkan device (C++ AMP's accelerator).

    Attributes copy ``amp_accelerator_info``: index, description, device_path,
    version (major << 16 | minor), dedicated_memory (KB), is_emulated (a CPU device
    such as lavapipe), supports_double_precision, supports_cpu_shared_memory,
    max_tile_threads, max_tile_static_bytes. Pass one (or its index, or a name
    substring) as ``device=`` to any call.
    """

    def __init__(self, handle):
        self._handle = handle
        info = ffi.new("amp_accelerator_info *")
        check(lib.amp_accelerator_get_info(handle, info))
        self.index = info.index
        self.description = ffi.string(info.description).decode()
        self.device_path = ffi.string(info.device_path).decode()
        self.version = info.version
        self.dedicated_memory = info.dedicated_memory
        self.is_emulated = bool(info.is_emulated)
        self.is_debug = bool(info.is_debug)
        self.supports_double_precision = bool(info.supports_double_precision)
        self.supports_cpu_shared_memory = bool(info.supports_cpu_shared_memory)
        self.max_tile_threads = info.max_tile_threads
        self.max_tile_static_bytes = info.max_tile_static_bytes
        self._view = None

    @property
    def view(self):
        """The accelerator's default accelerator_view (a cffi pointer), opened on first use."""
        if self._view is None:
            self._view = check_ptr(lib.amp_accelerator_default_view(self._handle))
        return self._view

    def wait(self):
        """Waits until all work recorded on the accelerator's default view is complete."""
        check(lib.amp_view_wait(self.view))

    def __eq__(self, other):
        return isinstance(other, Accelerator) and other._handle == self._handle

    def __hash__(self):
        return hash(self.device_path)

    def __repr__(self):
        kind = "emulated" if self.is_emulated else "device"
        return f"<ampvk.Accelerator {self.index}: {self.description} ({kind})>"


_accelerators = {}  # amp_accelerator pointer -> Accelerator; they never go away
_by_key = {}        # device= values already resolved -> Accelerator


def _wrap(handle):
    key = int(ffi.cast("uintptr_t", handle))
    acc = _accelerators.get(key)
    if acc is None:
        acc = _accelerators[key] = Accelerator(handle)
    return acc


def accelerators():
    """Every accelerator (Vulkan physical device), in the library's order."""
    n = lib.amp_accelerator_count()
    if n == 0 and lib.amp_last_status() != 0:
        raise last_error()
    return [_wrap(check_ptr(lib.amp_accelerator_at(i))) for i in range(n)]


def default_accelerator():
    """The default accelerator: $AMPVK_DEFAULT_ACCELERATOR (an index, device path or
    name substring), else the first discrete GPU, integrated, virtual, then CPU device."""
    return _wrap(check_ptr(lib.amp_accelerator_default()))


def accelerator(device):
    """The Accelerator that device= names: None (the default), an Accelerator, an
    index or a string (a device path or a name substring)."""
    if isinstance(device, Accelerator):
        return device
    acc = _by_key.get(device)
    if acc is not None:
        return acc
    if device is None:
        acc = default_accelerator()
    elif isinstance(device, (bool, float)) or not isinstance(device, (int, str, np.integer)):
        fail(f"device={device!r}: give an Accelerator, an index or a name")
    else:
        key = device if isinstance(device, str) else str(int(device))
        acc = _wrap(check_ptr(lib.amp_accelerator_find(key.encode())))
    _by_key[device] = acc
    return acc


def view_of(device):
    """The default accelerator_view of the accelerator device= names."""
    return accelerator(device).view


# ---- element types ----

_type_cache = {}


def amp_type(name):
    """The amp_type named name ("unorm_3", "float"), from the library's own table."""
    t = _type_cache.get(name)
    if t is None:
        t = _type_cache[name] = lib.amp_type_from_name(name.encode())
        if t == lib.AMP_TYPE_STRUCT:
            fail(f"{name!r} is not an element type")
    return t


def type_name(scalar, components):
    """The short-vector name of a scalar family and a component count: ("unorm", 3) is
    "unorm_3", ("float", 1) "float"."""
    return scalar if components == 1 else f"{scalar}_{components}"


# The numpy dtype of each scalar family's host data (norm and unorm kernels' arrays
# hold floats; textures store their own bits: images.py).
SCALAR_DTYPES = {
    lib.AMP_SCALAR_INT: np.dtype(np.int32),
    lib.AMP_SCALAR_UINT: np.dtype(np.uint32),
    lib.AMP_SCALAR_FLOAT: np.dtype(np.float32),
    lib.AMP_SCALAR_DOUBLE: np.dtype(np.float64),
    lib.AMP_SCALAR_NORM: np.dtype(np.float32),
    lib.AMP_SCALAR_UNORM: np.dtype(np.float32),
}


def as_buffer(array):
    """A cffi pointer to a C-contiguous array's memory (no copy)."""
    return ffi.from_buffer(array, require_writable=False)
