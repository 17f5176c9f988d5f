#!/usr/bin/env python3
"""Writes tests/data/formats/jpeg/: the JPEG files tests/test_jpeg.c reads, and what
OpenCV decodes each to (NAME.cv2.png, RGB or gray), made once with python3-opencv
4.6.0, Pillow 9.4.0, libjpeg-turbo 2.1.5's TurboJPEG (through ctypes) and its jpegtran
and cjpeg (Debian's libjpeg-turbo-progs). Run it again only to change the fixtures.

  source.png                 the 40x24 RGB picture every file below is made from
  q90_420.jpg                cv2.imencode at quality 90 (OpenCV's 4:2:0)
  q90_444.jpg, q90_422.jpg,  cjpeg -quality 90 -sample 1x1 / 2x1 / 2x2 -dct int: what
  q75_420.jpg                ampvk must write byte for byte at that quality and subsampling
  gray.jpg                   cv2.imencode of source's gray (one component)
  progressive.jpg            cv2.imencode, progressive
  arithmetic.jpg             jpegtran -arithmetic of q90_420.jpg (same coefficients)
  cmyk.jpg                   Pillow's CMYK JPEG (Adobe marker, inverted) of source
  ycck.jpg                   TurboJPEG's YCCK JPEG of source's CMYK
  orient1.jpg .. orient8.jpg q90_420.jpg with an EXIF APP1 holding orientation 1..8;
                             NAME.cv2.png is cv2.imread(NAME) (orientation applied)
  stored.cv2.png             cv2.imread(q90_420.jpg, IMREAD_IGNORE_ORIENTATION): the
                             pixels as stored, for every orient file
"""
import ctypes
import ctypes.util
import io
import os
import struct
import subprocess
import tempfile

import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 40, 24


def path(name):
    return os.path.join(HERE, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def reference(name, flags=cv2.IMREAD_COLOR):
    """NAME.cv2.png: what cv2.imread decodes NAME.jpg to, as RGB (or gray)."""
    img = cv2.imread(path(name + ".jpg"), flags)
    assert img is not None, name
    if img.ndim == 3:
        img = img[:, :, ::-1]
    cv2.imwrite(path(name + ".cv2.png"), img if img.ndim == 2 else img[:, :, ::-1])


def source():
    y, x = np.mgrid[0:H, 0:W]
    rgb = np.dstack([x * 6 + y * 2, 200 - y * 7, (x * y) % 97 + 60]).astype(np.uint8)
    rgb[8:16, 10:30] = (250, 30, 40)  # a red block: chroma edges
    return rgb


def encode(rgb, params):
    ok, data = cv2.imencode(".jpg", rgb[:, :, ::-1].copy(), params)
    assert ok
    return data.tobytes()


def cjpeg(rgb, quality, sample):
    with tempfile.TemporaryDirectory() as d:
        ppm = os.path.join(d, "s.ppm")
        with open(ppm, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (W, H) + rgb.tobytes())
        return subprocess.run(["cjpeg", "-quality", str(quality), "-sample", sample, "-dct", "int", ppm],
                              check=True, capture_output=True).stdout


def ycck(rgb):
    tj = ctypes.CDLL(ctypes.util.find_library("turbojpeg"))
    tj.tjInitCompress.restype = ctypes.c_void_p
    h = ctypes.c_void_p(tj.tjInitCompress())
    k = 255 - rgb.max(axis=2)
    cmyk = np.dstack([255 - rgb[:, :, 0], 255 - rgb[:, :, 1], 255 - rgb[:, :, 2], 255 - k]).astype(np.uint8)
    buf, size = ctypes.POINTER(ctypes.c_ubyte)(), ctypes.c_ulong(0)
    TJPF_CMYK, TJSAMP_444, TJFLAG_ACCURATEDCT = 11, 0, 4096
    src = cmyk.tobytes()
    rc = tj.tjCompress2(h, src, W, 0, H, TJPF_CMYK, ctypes.byref(buf), ctypes.byref(size), TJSAMP_444, 90,
                        TJFLAG_ACCURATEDCT)
    assert rc == 0
    data = ctypes.string_at(buf, size.value)
    tj.tjFree(buf)
    tj.tjDestroy(h)
    return data


def with_orientation(jpeg, o):
    """jpeg with an EXIF APP1 (little-endian TIFF, IFD0 of one SHORT entry) after SOI."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, o, 0) \
        + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", 2 + len(app1)) + app1 + jpeg[2:]


def main():
    rgb = source()
    cv2.imwrite(path("source.png"), rgb[:, :, ::-1])
    q90 = encode(rgb, [cv2.IMWRITE_JPEG_QUALITY, 90])
    write("q90_420.jpg", q90)
    assert cjpeg(rgb, 90, "2x2") == q90, "cjpeg and cv2 differ at quality 90 4:2:0"
    for name, q, s in (("q90_444", 90, "1x1"), ("q90_422", 90, "2x1"), ("q75_420", 75, "2x2")):
        write(name + ".jpg", cjpeg(rgb, q, s))
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    ok, data = cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, 90])
    write("gray.jpg", data.tobytes())
    write("progressive.jpg", encode(rgb, [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]))
    write("arithmetic.jpg", subprocess.run(["jpegtran", "-arithmetic", path("q90_420.jpg")], check=True,
                                           capture_output=True).stdout)
    out = io.BytesIO()
    Image.fromarray(rgb).convert("CMYK").save(out, "JPEG", quality=90)
    write("cmyk.jpg", out.getvalue())
    write("ycck.jpg", ycck(rgb))
    for o in range(1, 9):
        write("orient%d.jpg" % o, with_orientation(q90, o))
    for name in ["q90_420", "q90_444", "q90_422", "q75_420", "progressive", "arithmetic", "cmyk", "ycck"] + \
            ["orient%d" % o for o in range(1, 9)]:
        reference(name)
    reference("gray", cv2.IMREAD_UNCHANGED)
    img = cv2.imread(path("orient6.jpg"), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    cv2.imwrite(path("stored.cv2.png"), img)
    assert (cv2.imread(path("arithmetic.cv2.png")) == cv2.imread(path("q90_420.cv2.png"))).all()
    print("make_jpeg.py: OpenCV %s, Pillow %s" % (cv2.__version__, Image.__version__))


if __name__ == "__main__":
    main()
