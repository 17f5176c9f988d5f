#!/usr/bin/env python3
"""Writes the OpenEXR fixtures of tests/test_exr.c into this folder (run once; the
files are kept in the repository). Deterministic for a given OpenCV.

Made with OpenCV 4.6.0 (Debian 12's python3-opencv, OpenEXR 3.1.5 inside), which reads
and writes EXR when OPENCV_IO_ENABLE_OPENEXR=1 is set before cv2 is imported. The
script prints cv2.__version__ and refuses any other version.

Each NAME.exr has NAME.f32 (or NAME.f16 for files of half channels): what
cv2.imread(IMREAD_UNCHANGED) decodes it to, as raw little-endian float32 (float16)
samples, rows top first, texels in ampvk's channel order (Y, YA, RGB, RGBA; OpenCV's
BGR(A) turned around). The files that OpenCV cannot write are written here by hand
(write_scanline, write_tiled below), checked by reading them back with cv2 where
OpenCV reads them; their .f32/.f16 is the exact array written.

  Written by OpenCV (cv2.imwrite), scanline:
    {y,rgb,rgba}_{float,half}.exr   13x7, ZIP (OpenCV's default compression)
    rgb_half_COMP.exr               23x35 smooth + noise, half, every compression OpenCV
                                    writes: none rle zips zip piz pxr24 b44 b44a dwaa dwab
    y_float_COMP.exr                23x35 float, the lossless ones and pxr24 (lossy for
                                    float: 24 bits)
  Written here:
    ya_half.exr                     13x7 Y + A, half, uncompressed (OpenCV writes no
                                    2-channel files)
    window_rgb_float.exr            13x7 float RGB whose data window is (-3, 5)-(9, 11)
    uint_y.exr                      9x4 one UINT channel Y (ampvk reads it as float)
    layer_rgb_half.exr              9x4 "diffuse.B/G/R" and "Z" (ampvk reads the layer)
    z_float.exr                     9x4 one channel Z (ampvk reads it as Y)
    tiled_rgba_half_zip.exr         37x21 tiles of 16x8, ZIP, partial tiles at the edges
    tiled_rgb_float_none.exr        37x21 tiles of 16x16, uncompressed
    tiled_y_half_mip.exr            37x21 mipmapped tiles of 8x8, ZIP (level 0 is read)
"""
import os

os.environ["OPENCV_IO_ENABLE_OPENEXR"] = "1"
import struct  # noqa: E402
import zlib  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
assert cv2.__version__ == "4.6.0", cv2.__version__
print("OpenCV", cv2.__version__)

HALF, FLOAT, UINT = 1, 2, 0
COMP = {"none": 0, "rle": 1, "zips": 2, "zip": 3, "piz": 4, "pxr24": 5, "b44": 6, "b44a": 7, "dwaa": 8, "dwab": 9}
CV_COMP = {"none": cv2.IMWRITE_EXR_COMPRESSION_NO, "rle": cv2.IMWRITE_EXR_COMPRESSION_RLE,
           "zips": cv2.IMWRITE_EXR_COMPRESSION_ZIPS, "zip": cv2.IMWRITE_EXR_COMPRESSION_ZIP,
           "piz": cv2.IMWRITE_EXR_COMPRESSION_PIZ, "pxr24": cv2.IMWRITE_EXR_COMPRESSION_PXR24,
           "b44": cv2.IMWRITE_EXR_COMPRESSION_B44, "b44a": cv2.IMWRITE_EXR_COMPRESSION_B44A,
           "dwaa": cv2.IMWRITE_EXR_COMPRESSION_DWAA, "dwab": cv2.IMWRITE_EXR_COMPRESSION_DWAB}


def path(name):
    return os.path.join(HERE, name)


def to_ampvk(a):
    """OpenCV's array (H x W, or H x W x C in BGR(A)) as H x W x C in RGB(A)."""
    if a.ndim == 2:
        return a[:, :, None]
    return a[:, :, [2, 1, 0, 3][: a.shape[2]]] if a.shape[2] in (3, 4) else a


def save_reference(name, texels, half):
    dt = "<f2" if half else "<f4"
    with open(path(name + (".f16" if half else ".f32")), "wb") as f:
        f.write(np.ascontiguousarray(texels).astype(dt).tobytes())


def picture(w, h, c, seed):
    """A smooth gradient with noise, in about 0..1.5 (EXR holds more than 0..1)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    base = [(x / w) * 1.5, (y / h), (x + y) / (w + h) * 0.75, 1 - x / (2 * w)]
    planes = [base[i] + rng.normal(0, 0.02, (h, w)).astype(np.float32) for i in range(c)]
    return np.stack(planes, axis=2).astype(np.float32)


def cv_write(name, texels, half, comp="zip"):
    """texels: H x W x C in ampvk's order; written by cv2, its decode kept."""
    a = texels if texels.shape[2] != 1 else texels[:, :, 0]
    if a.ndim == 3:
        a = a[:, :, [2, 1, 0, 3][: a.shape[2]]]
    params = [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF if half else cv2.IMWRITE_EXR_TYPE_FLOAT,
              cv2.IMWRITE_EXR_COMPRESSION, CV_COMP[comp]]
    assert cv2.imwrite(path(name + ".exr"), np.ascontiguousarray(a), params)
    back = cv2.imread(path(name + ".exr"), cv2.IMREAD_UNCHANGED)
    assert back.dtype == np.float32 and back.shape[:2] == texels.shape[:2], (name, back.shape)
    save_reference(name, to_ampvk(back), half)


# ---- files written by hand: the OpenEXR layout (openexr.com, "OpenEXR File Layout") ----

def attr(name, kind, data):
    return name.encode() + b"\0" + kind.encode() + b"\0" + struct.pack("<i", len(data)) + data


def header(channels, w, h, comp, origin=(0, 0), tiles=None):
    """channels: [(name, type)], sorted here as OpenEXR sorts them."""
    chl = b"".join(n.encode() + b"\0" + struct.pack("<iB3xii", t, 0, 1, 1) for n, t in sorted(channels)) + b"\0"
    x0, y0 = origin
    box = struct.pack("<iiii", x0, y0, x0 + w - 1, y0 + h - 1)
    out = attr("channels", "chlist", chl) + attr("compression", "compression", bytes([comp]))
    out += attr("dataWindow", "box2i", box) + attr("displayWindow", "box2i", box)
    out += attr("lineOrder", "lineOrder", b"\0") + attr("pixelAspectRatio", "float", struct.pack("<f", 1))
    out += attr("screenWindowCenter", "v2f", struct.pack("<ff", 0, 0))
    out += attr("screenWindowWidth", "float", struct.pack("<f", 1))
    if tiles:
        tw, th, mode = tiles
        out += attr("tiles", "tiledesc", struct.pack("<IIB", tw, th, mode))
    version = 2 | (0x200 if tiles else 0)
    return b"\x76\x2f\x31\x01" + struct.pack("<I", version) + out + b"\0"


def block(planes, channels, x0, y0, w, h):
    """The bytes of a block: each row, each channel (sorted by name), its samples."""
    order = sorted(range(len(channels)), key=lambda i: channels[i][0])
    dt = {HALF: "<f2", FLOAT: "<f4", UINT: "<u4"}
    out = b""
    for y in range(y0, y0 + h):
        for i in order:
            out += planes[i][y, x0:x0 + w].astype(dt[channels[i][1]]).tobytes()
    return out


def zip_block(raw):
    """OpenEXR's ZIP: bytes split even/odd, differences + 128, zlib; raw if no smaller."""
    t = bytearray(raw[0::2] + raw[1::2])
    for i in range(len(t) - 1, 0, -1):
        t[i] = (t[i] - t[i - 1] + 128 + 256) & 255
    z = zlib.compress(bytes(t), 9)
    return z if len(z) < len(raw) else raw


def write_scanline(name, channels, planes, origin=(0, 0)):
    """An uncompressed scanline file (a row a chunk)."""
    h, w = planes[0].shape
    head = header(channels, w, h, 0, origin)
    chunks = [struct.pack("<ii", origin[1] + y, len(b)) + b
              for y, b in ((y, block(planes, channels, 0, y, w, 1)) for y in range(h))]
    write_chunks(name, head, chunks)


def write_chunks(name, head, chunks):
    """NAME.exr: the header, the offset table of the chunks, the chunks."""
    at = len(head) + 8 * len(chunks)
    table = b""
    for c in chunks:
        table += struct.pack("<Q", at)
        at += len(c)
    with open(path(name + ".exr"), "wb") as f:
        f.write(head + table + b"".join(chunks))


def write_tiled(name, channels, planes, tw, th, comp, mip=False):
    """A tiled file (ONE_LEVEL, or MIPMAP_LEVELS rounded down: each level the one above
    averaged 2x2 with its last odd row or column dropped)."""
    h, w = planes[0].shape
    levels = [planes]
    while mip and max(levels[-1][0].shape) > 1:
        lh, lw = levels[-1][0].shape
        nh, nw = max(1, lh // 2), max(1, lw // 2)
        nxt = []
        for p in levels[-1]:
            q = p[: nh * 2 if lh > 1 else 1, : nw * 2 if lw > 1 else 1].astype(np.float64)
            if lh > 1:
                q = (q[0::2] + q[1::2]) / 2
            if lw > 1:
                q = (q[:, 0::2] + q[:, 1::2]) / 2
            nxt.append(q.astype(p.dtype))
        levels.append(nxt)
    head = header(channels, w, h, comp, tiles=(tw, th, 1 if mip else 0))
    chunks = []
    for lv, ps in enumerate(levels):
        lh, lw = ps[0].shape
        for ty in range((lh + th - 1) // th):
            for tx in range((lw + tw - 1) // tw):
                x0, y0 = tx * tw, ty * th
                raw = block(ps, channels, x0, y0, min(tw, lw - x0), min(th, lh - y0))
                data = zip_block(raw) if comp == COMP["zip"] else raw
                chunks.append(struct.pack("<iiiii", tx, ty, lv, lv, len(data)) + data)
    write_chunks(name, head, chunks)


def hand(name, channels, texels, half, cv_check=True, **kw):
    """texels H x W x C in ampvk's order; channels named in that order."""
    planes = [texels[:, :, i] for i in range(texels.shape[2])]
    if "tiles" in kw:
        tw, th, comp, mip = kw["tiles"]
        write_tiled(name, channels, planes, tw, th, comp, mip)
    else:
        write_scanline(name, channels, planes, kw.get("origin", (0, 0)))
    save_reference(name, texels, half)
    if cv_check:  # OpenCV (OpenEXR's C++ library) reads the file written here the same
        back = cv2.imread(path(name + ".exr"), cv2.IMREAD_UNCHANGED)
        want = texels.astype(np.float16).astype(np.float32) if half else texels
        assert back is not None and np.array_equal(to_ampvk(back), want), name


def main():
    for c, cn in ((1, "y"), (3, "rgb"), (4, "rgba")):
        for half in (False, True):
            cv_write("%s_%s" % (cn, "half" if half else "float"), picture(13, 7, c, 10 + c), half)
    rgb = picture(23, 35, 3, 1)
    for comp in COMP:
        cv_write("rgb_half_" + comp, rgb, True, comp)
    y = picture(23, 35, 1, 2)
    for comp in ("none", "rle", "zips", "zip", "piz", "pxr24"):
        cv_write("y_float_" + comp, y, False, comp)

    h16 = lambda a: a.astype(np.float16).astype(np.float32)  # noqa: E731
    hand("ya_half", [("Y", HALF), ("A", HALF)], h16(picture(13, 7, 2, 3)), True, cv_check=False)
    hand("window_rgb_float", [("R", FLOAT), ("G", FLOAT), ("B", FLOAT)], picture(13, 7, 3, 4), False,
         origin=(-3, 5))
    u = (np.arange(36, dtype=np.uint32).reshape(4, 9, 1) * 1234567) % 100000
    planes = [u[:, :, 0]]
    write_scanline("uint_y", [("Y", UINT)], planes)
    save_reference("uint_y", u.astype(np.float32), False)
    layer = h16(picture(9, 4, 4, 5))
    write_scanline("layer_rgb_half", [("diffuse.R", HALF), ("diffuse.G", HALF), ("diffuse.B", HALF), ("Z", HALF)],
                   [layer[:, :, i] for i in range(4)])
    save_reference("layer_rgb_half", layer[:, :, :3], True)
    hand("z_float", [("Z", FLOAT)], picture(9, 4, 1, 6), False, cv_check=False)
    hand("tiled_rgba_half_zip", [("R", HALF), ("G", HALF), ("B", HALF), ("A", HALF)], h16(picture(37, 21, 4, 7)),
         True, tiles=(16, 8, COMP["zip"], False))
    hand("tiled_rgb_float_none", [("R", FLOAT), ("G", FLOAT), ("B", FLOAT)], picture(37, 21, 3, 8), False,
         tiles=(16, 16, COMP["none"], False))
    hand("tiled_y_half_mip", [("Y", HALF)], h16(picture(37, 21, 1, 9)), True, tiles=(8, 8, COMP["zip"], True))
    total = sum(os.path.getsize(path(n)) for n in os.listdir(HERE))
    print("%d files, %d bytes" % (len(os.listdir(HERE)), total))


if __name__ == "__main__":
    main()
