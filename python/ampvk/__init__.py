"""ampvk from Python: images as numpy arrays, built-in filters, GLSL kernels and
golden-image comparison on the accelerator (a GPU, or lavapipe on the CPU).

    import ampvk
    img = ampvk.load("photo.png")                       # H x W x 3 uint8, RGB
    out = ampvk.filter(img, "gaussian:sigma=2 sharpen:amount=0.5")
    ampvk.save("out.png", out)

    with ampvk.Texture(img) as t:                       # pixels stay on the device
        t2 = t.filter("gaussian", sigma=2).filter("grayscale")
        gray = t2.numpy()

    r = ampvk.diff(expected, actual, metric="yiq", tolerance=0.1, draw="overlay")
    r.passed, r.differing_texels, r.diff                # every field of the C result

Images are H x W or H x W x C numpy arrays (C = 1..4, RGB(A) order; bgr=True for
OpenCV's order) of uint8, uint16, float16 or float32. Every call takes device=
(an Accelerator, an index or a name substring; default: ampvk.default_accelerator()).
Failures raise ampvk.Error carrying the library's message and status.
The pytest plugin (golden-image tests): ``pytest -p ampvk.pytest_plugin``.
"""
from ._core import (Accelerator, Error, accelerators, default_accelerator, log_messages,
                    validation_message_count)
from .compare import Result, diff
from .filters import describe_filters, filter, filter_names, release_cached_textures
from .images import Texture, load, save
from .kernels import Kernel, Sampler, parallel_for_each

__version__ = "0.1.0"

__all__ = ["Accelerator", "Error", "Kernel", "Result", "Sampler", "Texture", "accelerators",
           "default_accelerator", "describe_filters", "diff", "filter", "filter_names", "load",
           "log_messages", "parallel_for_each", "release_cached_textures", "save",
           "validation_message_count"]
