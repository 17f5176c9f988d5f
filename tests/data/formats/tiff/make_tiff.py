#!/usr/bin/python3
"""Makes the TIFF fixtures of tests/test_tiff.c (run once; the outputs are kept).

cv2_*.tif: written by OpenCV's cv2.imwrite (4.6.0 made the kept files; the version that
ran is printed and written to README) at 8, 16 and 32 bits with 1, 3 and 4 channels at
its default settings (LZW + horizontal predictor for integers; no compression for 1- and
4-channel floats; LogLuv (SGILOG, lossy) for 3-channel floats), plus PackBits, deflate
(both codes), JPEG and no compression. Next to each, what cv2.imread(IMREAD_UNCHANGED)
decodes it to, as RGB(A): NAME.cv2.png (8/16 bits) or NAME.cv2.f32 (floats, raw
little-endian, rows top first, channels interleaved).

ori_*_oN.tif: the picture stored as it is with TIFF orientation N (1..8), read by
cv2.imread as ori_*_oN.cv2.png (the orientation applied; checked here against numpy's
turn of the stored picture) and NAME.raw the samples as stored: 8-bit RGB (decoded
directly), 16-bit gray, and an 8-bit palette (libtiff's RGBA rendering).

tf_*.tif: written by tifffile for what OpenCV cannot write (tiles, separate planes,
gray + alpha, associated alpha, big-endian "MM", BigTIFF, MinIsWhite, palettes, 1-bit,
CMYK); own_*.tif: assembled here (deflate with the floating-point predictor, which
tifffile cannot encode without imagecodecs). Next to each, NAME.raw: the samples ampvk
must return, little-endian, interleaved (computed with numpy, not by a TIFF reader).
"""
import os
import struct
import zlib

import cv2
import numpy as np
import tifffile

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 29, 24


def picture(channels, dtype, seed):
    """A smooth gradient with noise: RGB(A) order, shape (H, W, channels)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    planes = [(x / W), (y / H), ((x + y) / (W + H)), 0.5 + 0.4 * np.sin(x / 3.0)]
    a = np.stack(planes[:channels], axis=-1) * 0.8 + rng.random((H, W, channels)) * 0.2
    if dtype == np.float32:
        return (a * 1.5 - 0.1).astype(np.float32)  # past 0..1 on purpose
    top = np.iinfo(dtype).max
    return np.clip(np.round(a * top), 0, top).astype(dtype)


def bgr(a):
    """RGB(A) to OpenCV's BGR(A) and back (the same swap)."""
    if a.ndim == 3 and a.shape[2] in (3, 4):
        return a[..., [2, 1, 0] + ([3] if a.shape[2] == 4 else [])]
    return a


def path(name):
    return os.path.join(HERE, name)


def write_raw(name, a):
    a = np.ascontiguousarray(a)
    with open(path(name + '.raw'), 'wb') as f:
        f.write(a.astype(a.dtype.newbyteorder('<')).tobytes())


def cv2_cases():
    cases = []
    for bits, dtype in ((8, np.uint8), (16, np.uint16), (32, np.float32)):
        for ch, kind in ((1, 'gray'), (3, 'rgb'), (4, 'rgba')):
            cases.append(('cv2_%s%d' % (kind, bits), picture(ch, dtype, bits * 10 + ch), []))
    cases += [
        ('cv2_rgb8_packbits', picture(3, np.uint8, 1), [cv2.IMWRITE_TIFF_COMPRESSION, 32773]),
        ('cv2_gray16_packbits', picture(1, np.uint16, 2), [cv2.IMWRITE_TIFF_COMPRESSION, 32773]),
        ('cv2_gray16_deflate', picture(1, np.uint16, 3), [cv2.IMWRITE_TIFF_COMPRESSION, 8]),
        ('cv2_rgba8_adobe_deflate', picture(4, np.uint8, 4), [cv2.IMWRITE_TIFF_COMPRESSION, 32946]),
        ('cv2_rgb8_jpeg', picture(3, np.uint8, 5), [cv2.IMWRITE_TIFF_COMPRESSION, 7]),
        ('cv2_rgb16_none', picture(3, np.uint16, 6), [cv2.IMWRITE_TIFF_COMPRESSION, 1]),
    ]
    for name, a, params in cases:
        assert cv2.imwrite(path(name + '.tif'), bgr(a), params)
        back = cv2.imread(path(name + '.tif'), cv2.IMREAD_UNCHANGED)
        assert back is not None and back.dtype == a.dtype, name
        if back.dtype == np.float32:
            rgb = bgr(back) if back.ndim == 3 else back
            with open(path(name + '.cv2.f32'), 'wb') as f:
                f.write(np.ascontiguousarray(rgb).astype('<f4').tobytes())
        else:
            assert cv2.imwrite(path(name + '.cv2.png'), back)  # PNG keeps cv2's BGR as RGB


def tf(name, a, expected=None, **kw):
    tifffile.imwrite(path(name + '.tif'), a, **kw)
    write_raw(name, a if expected is None else expected)


def tifffile_cases():
    rgb8, rgb16 = picture(3, np.uint8, 100), picture(3, np.uint16, 101)
    rgba8 = picture(4, np.uint8, 102)
    ga8, ga16 = picture(2, np.uint8, 103), picture(2, np.uint16, 104)
    g8, g16, g32 = picture(1, np.uint8, 105)[..., 0], picture(1, np.uint16, 106)[..., 0], \
        picture(1, np.float32, 107)[..., 0]
    tf('tf_rgb8_tiled', rgb8, tile=(16, 16), compression='zlib', photometric='rgb')
    tf('tf_rgb16_planar', np.moveaxis(rgb16, -1, 0), expected=rgb16, planarconfig='separate', rowsperstrip=7, photometric='rgb')
    tf('tf_rgba8_planar_tiled_deflate', np.moveaxis(rgba8, -1, 0), expected=rgba8, planarconfig='separate', tile=(16, 32),
       compression='adobe_deflate', photometric='rgb', extrasamples=['unassalpha'])
    tf('tf_ga8', ga8, photometric='minisblack', extrasamples=['unassalpha'], compression='zlib')
    tf('tf_ga16_assoc', ga16, photometric='minisblack', extrasamples=['assocalpha'], rowsperstrip=9)
    tf('tf_rgb16_be', rgb16, byteorder='>', photometric='rgb', compression='zlib', rowsperstrip=8)
    tf('tf_gray32f_be_tiled', g32, byteorder='>', tile=(16, 16))
    tf('tf_rgb8_bigtiff', rgb8, bigtiff=True, photometric='rgb', compression='zlib')
    tf('tf_miniswhite8', g8, expected=255 - g8, photometric='miniswhite')
    tf('tf_miniswhite16', g16, expected=65535 - g16, photometric='miniswhite', compression='zlib')
    # palette: a 16-bit color map (v * 257; libtiff's rendering takes the high byte)
    cmap8 = picture(3, np.uint8, 108).reshape(-1, 3)[:256].T.astype(np.uint16)
    index = (np.arange(H * W).reshape(H, W) * 7 % 256).astype(np.uint8)
    tf('tf_palette8', index, expected=cmap8.T[index].astype(np.uint8), photometric='palette', colormap=cmap8 * 257)
    bits = (picture(1, np.uint8, 109)[..., 0] > 128)
    tf('tf_bilevel', bits, expected=np.where(bits, 255, 0).astype(np.uint8), photometric='minisblack')
    cmyk = picture(4, np.uint8, 110).astype(np.int32)
    k = 255 - cmyk[..., 3]
    rgb = np.stack([(k * (255 - cmyk[..., i])) // 255 for i in range(3)], axis=-1).astype(np.uint8)
    tf('tf_cmyk8', cmyk.astype(np.uint8), expected=rgb, photometric='separated')
    # what ampvk does not read: 32-bit unsigned integers (no .raw)
    tifffile.imwrite(path('unsupported_gray32u.tif'), (g16.astype(np.uint32) << 16), photometric='minisblack')


def turned(a, o):
    """a as orientation o (1..8, TIFF's and EXIF's numbering) says to show it."""
    flips = {1: a, 2: a[:, ::-1], 3: a[::-1, ::-1], 4: a[::-1]}
    if o <= 4:
        return flips[o]
    t = np.swapaxes(a, 0, 1)  # 5: transposed
    return {5: t, 6: t[:, ::-1], 7: t[::-1, ::-1], 8: t[::-1]}[o]


def orientation_cases():
    rgb8, g16 = picture(3, np.uint8, 120), picture(1, np.uint16, 121)[..., 0]
    cmap8 = picture(3, np.uint8, 122).reshape(-1, 3)[:256].T.astype(np.uint16)
    index = (np.arange(H * W).reshape(H, W) * 5 % 256).astype(np.uint8)
    palette = cmap8.T[index].astype(np.uint8)
    cases = [('ori_rgb8', rgb8, rgb8, dict(photometric='rgb'), range(1, 9)),
             ('ori_gray16', g16, g16, dict(photometric='minisblack', compression='zlib'), (3, 7)),
             ('ori_palette8', index, palette, dict(photometric='palette', colormap=cmap8 * 257), (2, 6))]
    for base, stored, shown, kw, orientations in cases:
        write_raw(base, shown)
        for o in orientations:
            name = '%s_o%d' % (base, o)
            tifffile.imwrite(path(name + '.tif'), stored, extratags=[(274, 'H', 1, o, True)], **kw)
            back = cv2.imread(path(name + '.tif'), cv2.IMREAD_UNCHANGED)
            assert np.array_equal(bgr(back), turned(shown, o)), name
            assert cv2.imwrite(path(name + '.cv2.png'), back)


def ifd_tiff(name, w, h, spp, bps, fmt, photometric, compression, predictor, strips, rps, extra=None):
    """A little-endian TIFF assembled by hand: one IFD, the strips given (bytes)."""
    entries = []  # (tag, type, values)
    entries += [(256, 4, [w]), (257, 4, [h]), (258, 3, [bps] * spp), (259, 3, [compression]),
                (262, 3, [photometric]), (273, 4, None), (277, 3, [spp]), (278, 4, [rps]),
                (279, 4, [len(s) for s in strips]), (284, 3, [1]), (317, 3, [predictor]),
                (339, 3, [fmt] * spp)]
    if extra is not None:
        entries.append((338, 3, [extra]))
    entries.sort()
    data = bytearray(b'II*\0\0\0\0\0')
    offsets = []
    for s in strips:
        offsets.append(len(data))
        data += s
        if len(data) % 2:
            data += b'\0'
    entries = [(t, ty, offsets if v is None else v) for t, ty, v in entries]
    size = {3: 2, 4: 4}
    blobs = {}
    for t, ty, v in entries:  # values over 4 bytes go before the IFD
        if len(v) * size[ty] > 4:
            blobs[t] = len(data)
            data += struct.pack('<%d%s' % (len(v), 'H' if ty == 3 else 'I'), *v)
    ifd = len(data)
    struct.pack_into('<I', data, 4, ifd)
    data += struct.pack('<H', len(entries))
    for t, ty, v in entries:
        if t in blobs:
            data += struct.pack('<HHII', t, ty, len(v), blobs[t])
        else:
            raw = struct.pack('<%d%s' % (len(v), 'H' if ty == 3 else 'I'), *v)
            data += struct.pack('<HHI', t, ty, len(v)) + raw.ljust(4, b'\0')
    data += b'\0\0\0\0'
    with open(path(name + '.tif'), 'wb') as f:
        f.write(bytes(data))


def predictor3_rows(a, spp):
    """Float rows as the floating-point predictor stores them: each row's bytes in
    planes (most significant first), then differenced bytewise at a stride of spp."""
    h = a.shape[0]
    b = a.astype('>f4').reshape(h, -1).view(np.uint8).reshape(h, -1, 4).transpose(0, 2, 1).reshape(h, -1)
    d = b.astype(np.int16)
    d[:, spp:] -= b[:, :-spp]
    return (d & 0xFF).astype(np.uint8)


def own_cases():
    for name, ch, rps in (('own_gray32f_pred3', 1, 16), ('own_rgba32f_pred3', 4, 40)):
        a = picture(ch, np.float32, 200 + ch)
        rows = predictor3_rows(a, ch)
        strips = [zlib.compress(rows[y:y + rps].tobytes()) for y in range(0, H, rps)]
        ifd_tiff(name, W, H, ch, 32, 3, 1 if ch == 1 else 2, 8, 3, strips, rps, extra=2 if ch == 4 else None)
        write_raw(name, a if ch > 1 else a[..., 0])


if __name__ == '__main__':
    cv2_cases()
    tifffile_cases()
    own_cases()
    orientation_cases()
    note = 'Made by make_tiff.py with OpenCV %s, tifffile %s, numpy %s.\n' % (
        cv2.__version__, tifffile.__version__, np.__version__)
    with open(path('README'), 'w') as f:
        f.write(note + 'See the docstring of make_tiff.py for what each file is.\n')
    print(note, end='')
