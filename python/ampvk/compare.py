"""Image comparison: ampvk.diff over numpy arrays, the library's one comparison engine
(channel differences, pixelmatch's YIQ, SSIM, NVIDIA's FLIP) and its pictures."""

from ._core import accelerator, check, fail, ffi, lib
from .images import _image_to_array, image_struct

__all__ = ["diff", "Result", "compare_desc"]

METRICS = {"channel": "CHANNEL", "yiq": "YIQ", "ssim": "SSIM", "flip": "FLIP"}
TONE_MAPPERS = {"aces": "ACES", "hable": "HABLE", "reinhard": "REINHARD"}
STYLES = {"overlay": "OVERLAY", "mask": "MASK", "heatmap": "HEATMAP"}


class Result:
    """What a comparison found: every field of ``amp_image_compare_result``.

    equal, passed (bools); max_abs_diff, channel_max_abs_diff (4 floats),
    mean_abs_diff, psnr (dB, inf when identical); max_score, mean_score, ssim;
    texels, differing_texels, allowed_texels, antialiased_texels, ignored_texels,
    window_texels; window_origin and first_difference as (row, column) or None;
    golden_written; weighted_median, weighted_quartiles (FLIP); histogram (100
    counts, FLIP); exposures, exposure_start, exposure_stop (HDR-FLIP).
    pictures: the drawn images by style ("overlay", "mask", "heatmap") as arrays;
    ``diff`` and ``heatmap`` are the overlay and heat map (None where not drawn).
    ``bool(result)`` is ``passed``.
    """

    FIELDS = ("equal", "passed", "max_abs_diff", "channel_max_abs_diff", "mean_abs_diff", "psnr", "max_score",
              "mean_score", "ssim", "texels", "differing_texels", "allowed_texels", "antialiased_texels",
              "ignored_texels", "window_texels", "window_origin", "first_difference", "golden_written",
              "weighted_median", "weighted_quartiles", "histogram", "exposures", "exposure_start", "exposure_stop")

    def __init__(self, r, pictures=None):
        for name in self.FIELDS:
            v = getattr(r, name)
            if name in ("window_origin", "first_difference"):
                v = tuple(v.i[k] for k in range(v.rank)) if v.rank else None
            elif name in ("channel_max_abs_diff", "weighted_quartiles", "histogram"):
                v = tuple(v)
            elif isinstance(v, bool):
                v = bool(v)
            setattr(self, name, v)
        self.pictures = pictures or {}

    @property
    def diff(self):
        """The overlay picture (differing pixels in red and blue on faded gray), or None."""
        return self.pictures.get("overlay")

    @property
    def heatmap(self):
        """The heat map (each pixel's score in the magma colormap), or None."""
        return self.pictures.get("heatmap")

    def __bool__(self):
        return self.passed

    def as_dict(self):
        """The fields as a dict (pictures left out)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __repr__(self):
        return (f"<ampvk.Result passed={self.passed} equal={self.equal} differing={self.differing_texels}/"
                f"{self.texels} max_abs_diff={self.max_abs_diff:g}>")


def compare_desc(metric="channel", tolerance=None, threshold=None, max_pixels=0, max_fraction=0.0,
                 ignore_antialiased=False, blend_on_white=False, ignore=(), mask=None, window=0, ppd=0.0,
                 tone_mapper="aces", exposures=0, exposure_start=0.0, exposure_stop=0.0, device=None):
    """An amp_image_compare_desc and the objects it points into (keep them alive)."""
    if metric not in METRICS:
        fail(f"metric {metric!r} is not one of {', '.join(METRICS)}")
    if tone_mapper not in TONE_MAPPERS:
        fail(f"tone_mapper {tone_mapper!r} is not one of {', '.join(TONE_MAPPERS)}")
    if tolerance is not None and threshold is not None and tolerance != threshold:
        fail("give tolerance or threshold (the same thing), not both")
    tol = tolerance if tolerance is not None else threshold
    d = ffi.new("amp_image_compare_desc *")
    keep = []
    d.metric = getattr(lib, "AMP_IMAGE_METRIC_" + METRICS[metric])
    d.tolerance = 0.0 if tol is None else float(tol)
    d.max_pixels = int(max_pixels)
    d.max_fraction = float(max_fraction)
    d.ignore_antialiased = bool(ignore_antialiased)
    d.blend_on_white = bool(blend_on_white)
    rects = [tuple(int(v) for v in r) for r in ignore]
    if any(len(r) != 4 for r in rects):
        fail("ignore: rectangles are (x, y, width, height)")
    if rects:
        arr = ffi.new("amp_image_rect[]", [{"x": x, "y": y, "width": w, "height": h} for x, y, w, h in rects])
        keep.append(arr)
        d.ignore, d.ignore_count = arr, len(rects)
    if mask is not None:
        img, data = image_struct(mask, "mask")
        keep += [img, data]
        d.mask = img
    d.window = int(window)
    d.ppd = float(ppd)
    d.tone_mapper = getattr(lib, "AMP_IMAGE_TONE_MAP_" + TONE_MAPPERS[tone_mapper])
    d.exposures = int(exposures)
    d.exposure_start, d.exposure_stop = float(exposure_start), float(exposure_stop)
    d.view = ffi.NULL if device is None else accelerator(device).view
    return d, keep


def diff(expected, actual, *, metric="channel", draw=(), bgr=False, **options):
    """Compares two images (numpy arrays of the same height, width and channels) as
    ``amp_image_compare_images`` does, and returns a Result.

    metric: "channel" (the largest channel difference, in steps of expected's depth
    for integer images, values for float ones), "yiq" (pixelmatch), "ssim" or
    "flip". tolerance (alias threshold): the largest metric a pixel may have and
    still match. max_pixels / max_fraction: how many may differ for ``passed``.
    ignore_antialiased, blend_on_white (YIQ); ignore: (x, y, width, height)
    rectangles; mask: an image whose zero alpha (or first channel) leaves pixels out;
    window: N to find the N x N window with the most differing pixels; ppd,
    tone_mapper ("aces", "hable", "reinhard"), exposures, exposure_start,
    exposure_stop (FLIP); device: where YIQ, SSIM and FLIP run.
    draw: pictures to make in the same comparison, any of "overlay", "mask",
    "heatmap" (result.pictures; result.diff and result.heatmap), each an RGB(A)
    uint8 array. bgr=True: the arrays are BGR(A) (and so are the pictures).
    """
    if isinstance(draw, str):
        draw = (draw,)
    for s in draw:
        if s not in STYLES:
            fail(f"draw: {s!r} is not one of {', '.join(STYLES)}")
    exp, keep_e = image_struct(expected, "expected", bgr)
    act, keep_a = image_struct(actual, "actual", bgr)
    desc, keep = compare_desc(metric, **options)
    out = ffi.new("amp_image_compare_result *")
    pictures = {}
    if draw:
        styles = ffi.new("amp_image_draw_style[]", [getattr(lib, "AMP_IMAGE_DRAW_" + STYLES[s]) for s in draw])
        pics = ffi.new("amp_image[]", len(draw))
        check(lib.amp_image_compare_draw_styles(exp, act, desc, styles, len(draw), out, pics))
        try:
            for k, s in enumerate(draw):
                pictures[s] = _image_to_array(pics[k], bgr)
        finally:
            for k in range(len(draw)):
                lib.amp_image_free(pics + k)
    else:
        check(lib.amp_image_compare_images(exp, act, desc, out))
    del keep_e, keep_a, keep
    return Result(out, pictures)
