#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer harnesses into tests/fuzz/corpus/<fuzzer>/.

Standard library only (zlib, struct); deterministic, so a change shows up as a
diff. Each corpus holds a few valid inputs and a few corrupt ones, well under
200 KB. scripts/fuzz.sh copies a corpus to a work folder before fuzzing, so
fuzzing never grows these.

  fuzz_png          tests/data/*.png, plus RLE-friendly large images, a 16-bit
                    palette-free file, a truncated IDAT, a bad CRC, a palette
                    index past the palette, a missing IEND, a zlib stream with a
                    bad Adler-32
  fuzz_hdr          tests/data/hdr_3x2.hdr, an RLE-encoded file, a truncated one,
                    a header without a resolution line, a "+Y -X" file
  fuzz_compare_png  8x8 RGBA PNGs of 8 and 16 bits (one equal to the harness's
                    texture), a 7x8 one, a gray one, a corrupt one
  fuzz_params       the parameter lists of tests/test_kernel.c and kernel.h, and
                    'K'-prefixed ones with declarations
  fuzz_api          call sequences in the harness's encoding (ops[] in fuzz_api.c)
  fuzz_FORMAT       (FORMAT_FUZZERS: jpeg ...) the format's files of at most 64 KB
                    among tests/data/formats and its folders, and one truncated
  fuzz_image        tests/data/formats/* of the other formats (BMP, TGA and PSD),
                    a few PNGs and the HDR of tests/data,
                    and the kinds the fixtures lack: BMP 1-, 4-, 8-bit paletted,
                    16-bit 565 bitfields, V5 32-bit with an alpha mask, OS/2; TGA
                    paletted (raw and RLE), 16-bit RGB, gray + alpha; PSD RLE RGBA
                    with partial alpha, 5 channels; and truncated ones
"""
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data")
OUT = os.path.join(HERE, "corpus")


def write(fuzzer, name, data):
    d = os.path.join(OUT, fuzzer)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- PNG ----

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, depth, ctype, rows, extra=b"", idat=None):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, ctype, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    z = idat if idat is not None else zlib.compress(raw, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", z) + chunk(b"IEND", b"")


def texture_texels():
    """The fuzz_compare_png texture: 8x8 unorm_4 of 8 bits, byte i = (i * 37 + 11) & 255."""
    return bytes((i * 37 + 11) & 255 for i in range(8 * 8 * 4))


def png_corpus():
    for name in sorted(os.listdir(DATA)):
        if name.endswith(".png"):
            shutil.copy(os.path.join(DATA, name), os.path.join(OUT, "fuzz_png", name))
    gray_rows = [bytes((x * 3 + y) & 255 for x in range(64)) for y in range(48)]
    write("fuzz_png", "gray8_64x48.png", png(64, 48, 8, 0, gray_rows))
    rgba16_rows = [b"".join(struct.pack(">HHHH", x * 999, y * 777, x * y, 65535 - x) for x in range(9))
                   for y in range(6)]
    write("fuzz_png", "rgba16_9x6.png", png(9, 6, 16, 6, rgba16_rows))
    good = png(16, 4, 8, 2, [bytes(range(48))] * 4)
    write("fuzz_png", "corrupt_truncated_idat.png", good[:-20])
    bad_crc = bytearray(good)
    bad_crc[30] ^= 0x40  # inside IHDR's CRC
    write("fuzz_png", "corrupt_bad_crc.png", bytes(bad_crc))
    plte = chunk(b"PLTE", bytes([10, 20, 30, 40, 50, 60]))
    write("fuzz_png", "corrupt_palette_index.png", png(4, 2, 8, 3, [bytes([0, 1, 2, 1])] * 2, extra=plte))
    write("fuzz_png", "corrupt_no_iend.png", good[:-12])
    z = bytearray(zlib.compress(b"\x00" + bytes(48), 9) * 1)
    z[-1] ^= 1
    write("fuzz_png", "corrupt_adler.png", png(16, 1, 8, 2, [], idat=bytes(z)))


def compare_png_corpus():
    t = texture_texels()
    rows8 = [t[y * 32:(y + 1) * 32] for y in range(8)]
    write("fuzz_compare_png", "equal_rgba8.png", png(8, 8, 8, 6, rows8))
    near = bytearray(t)
    near[77] ^= 3
    write("fuzz_compare_png", "near_rgba8.png", png(8, 8, 8, 6, [bytes(near[y * 32:(y + 1) * 32]) for y in range(8)]))
    rows16 = [b"".join(struct.pack(">H", v * 257 + (1 if i % 7 == 0 else 0)) for i, v in enumerate(r)) for r in rows8]
    write("fuzz_compare_png", "rgba16.png", png(8, 8, 16, 6, rows16))
    write("fuzz_compare_png", "wrong_size_7x8.png", png(7, 8, 8, 6, [r[:28] for r in rows8]))
    write("fuzz_compare_png", "wrong_channels_gray.png", png(8, 8, 8, 0, [bytes(8)] * 8))
    bad = bytearray(png(8, 8, 8, 6, rows8))
    bad[-20] ^= 0xFF
    write("fuzz_compare_png", "corrupt_idat.png", bytes(bad))


# ---- HDR ----

def hdr_corpus():
    shutil.copy(os.path.join(DATA, "hdr_3x2.hdr"), os.path.join(OUT, "fuzz_hdr", "hdr_3x2.hdr"))
    head = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n"
    # new-style RLE: width 8..32767, each scanline 2 2 hi lo then 4 runs of components
    w, h = 16, 3
    lines = b""
    for y in range(h):
        lines += bytes([2, 2, w >> 8, w & 255])
        for c in range(4):
            lines += bytes([128 + w, (y * 40 + c * 30 + 100) & 255])  # one run of w
    write("fuzz_hdr", "rle_16x3.hdr", head + b"-Y %d +X %d\n" % (h, w) + lines)
    # mixed runs and literals
    lines = b""
    for y in range(2):
        lines += bytes([2, 2, 0, 10])
        for c in range(4):
            lines += bytes([3, 1, 2, 3, 128 + 7, 200])
    write("fuzz_hdr", "rle_mixed_10x2.hdr", head + b"-Y 2 +X 10\n" + lines)
    flat = bytes([128, 64, 32, 129] * 6)
    write("fuzz_hdr", "rgbe_flipped.hdr", b"#?RGBE\nFORMAT=32-bit_rle_rgbe\n\n+Y 2 -X 3\n" + flat)
    write("fuzz_hdr", "corrupt_truncated.hdr", head + b"-Y 20 +X 30\n" + flat)
    write("fuzz_hdr", "corrupt_no_resolution.hdr", head + b"\n" + flat)
    write("fuzz_hdr", "corrupt_format.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 2 +X 3\n" + flat)


# ---- any image format (fuzz_image) ----

def bmp(w, h, bits, pixels, palette=b"", header=40, masks=None, compress=0):
    """A BMP: pixels(y) -> the bytes of row y (bottom-up on disk), padded here."""
    rows = b"".join(r + bytes((-len(r)) & 3) for r in (pixels(y) for y in range(h - 1, -1, -1)))
    if header == 12:
        info = struct.pack("<IHHHH", 12, w, h, 1, bits)
    else:
        info = struct.pack("<IiiHHIIiiII", header, w, h, 1, bits, compress, len(rows), 2835, 2835,
                           len(palette) // 4, 0)
        if header == 124:
            info += struct.pack("<IIII", *masks) + b"sRGB" + bytes(36 + 12 + 16)
        elif masks:
            info += struct.pack("<III", *masks[:3])
    off = 14 + len(info) + len(palette)
    return struct.pack("<2sIHHI", b"BM", off + len(rows), 0, 0, off) + info + palette + rows


def tga(kind, w, h, bits, data, cmap=b"", cmap_bits=0, descriptor=0):
    entries = len(cmap) * 8 // cmap_bits if cmap_bits else 0
    head = struct.pack("<BBBHHBHHHHBB", 0, 1 if cmap else 0, kind, 0, entries, cmap_bits, 0, 0, w, h, bits,
                       descriptor)
    return head + cmap + data


def psd(w, h, channels, planes, rle=False):
    """planes: per channel, per row, the row's bytes (already PackBits'ed with rle)."""
    head = struct.pack(">4sH6sHIIHH", b"8BPS", 1, bytes(6), channels, h, w, 8, 3) + struct.pack(">III", 0, 0, 0)
    if not rle:
        return head + struct.pack(">H", 0) + b"".join(r for p in planes for r in p)
    counts = b"".join(struct.pack(">H", len(r)) for p in planes for r in p)
    return head + struct.pack(">H", 1) + counts + b"".join(r for p in planes for r in p)


# The formats with a harness of their own (fuzz_FORMAT, fuzz_image.c built for it) and
# the extensions of their files among tests/data/formats (and its folders).
FORMAT_FUZZERS = {"jpeg": (".jpg", ".jpeg"), "webp": (".webp",), "exr": (".exr",), "tiff": (".tif", ".tiff")}


def format_files(exts):
    fmt = os.path.join(DATA, "formats")
    for root, _, names in sorted(os.walk(fmt)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if name.lower().endswith(exts) and os.path.getsize(path) <= 64 * 1024:
                yield path


def format_corpus(fmt, exts):
    """fuzz_FORMAT: the format's small fixtures, and the first one truncated."""
    files = list(format_files(exts))
    for path in files:
        shutil.copy(path, os.path.join(OUT, "fuzz_" + fmt, os.path.basename(path)))
    with open(files[0], "rb") as f:
        data = f.read()
    write("fuzz_" + fmt, "corrupt_truncated" + os.path.splitext(files[0])[1], data[: len(data) * 2 // 3])


def image_corpus():
    fmt = os.path.join(DATA, "formats")
    taken = tuple(e for exts in FORMAT_FUZZERS.values() for e in exts)
    for name in sorted(os.listdir(fmt)):
        path = os.path.join(fmt, name)
        if os.path.isfile(path) and not name.endswith(".cv2.png") and not name.lower().endswith(taken):
            shutil.copy(path, os.path.join(OUT, "fuzz_image", name))
    for name in ["rgb8.png", "ga16.png", "pal8_trns.png", "gray1.png", "rgb8_adam7.png", "hdr_3x2.hdr"]:
        shutil.copy(os.path.join(DATA, name), os.path.join(OUT, "fuzz_image", name))
    pal = b"".join(bytes([(i * 40) & 255, (i * 90) & 255, (i * 20) & 255, 0]) for i in range(16))
    write("fuzz_image", "bmp8_palette.bmp", bmp(9, 4, 8, lambda y: bytes((x + y) % 16 for x in range(9)), pal))
    write("fuzz_image", "bmp4_palette.bmp",
          bmp(9, 4, 4, lambda y: bytes(((x + y) % 16) << 4 | ((x + 2 * y) % 16) for x in range(5)), pal))
    write("fuzz_image", "bmp1.bmp", bmp(11, 3, 1, lambda y: bytes([0xA5 ^ y, 0x3C]), pal[:8]))
    write("fuzz_image", "bmp16_565.bmp",
          bmp(5, 3, 16, lambda y: b"".join(struct.pack("<H", x * 2000 + y * 333) for x in range(5)),
              masks=(0xF800, 0x07E0, 0x001F), compress=3))
    write("fuzz_image", "bmp32_v5_alpha.bmp",
          bmp(4, 3, 32, lambda y: bytes((x * 60 + y * 10 + c * 30) & 255 for x in range(4) for c in range(4)),
              header=124, masks=(0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000), compress=3))
    write("fuzz_image", "bmp24_os2.bmp", bmp(5, 3, 24, lambda y: bytes((x * 50 + y) & 255 for x in range(15)),
                                            header=12))
    cmap = bytes((i * 70 + c * 20) & 255 for i in range(6) for c in range(3))
    write("fuzz_image", "tga_palette.tga", tga(1, 6, 3, 8, bytes((x + y) % 6 for y in range(3) for x in range(6)),
                                               cmap, 24))
    write("fuzz_image", "tga_palette_rle.tga", tga(9, 6, 3, 8, bytes([0x85, 2, 0x05, 0, 1, 2, 3, 4, 5, 0x85, 1]),
                                                   cmap, 24))
    write("fuzz_image", "tga_rgb16.tga",
          tga(2, 4, 3, 16, b"".join(struct.pack("<H", x * 4000 + y * 700) for y in range(3) for x in range(4))))
    write("fuzz_image", "tga_gray_alpha.tga", tga(3, 4, 2, 16, bytes(range(16)), descriptor=0x28))
    plane = lambda c: [bytes([c * 60 + x * 7 + y for x in range(6)]) for y in range(4)]
    alpha = [bytes([255, 128, 64, 0, 200, 255]) for y in range(4)]
    packed = [[bytes([5]) + r for r in plane(c)] for c in range(3)] + [[bytes([5]) + r for r in alpha]]
    write("fuzz_image", "psd_rgba8_rle_alpha.psd", psd(6, 4, 4, packed, rle=True))
    write("fuzz_image", "psd_5_channels.psd", psd(6, 4, 5, [plane(c % 4) for c in range(5)]))
    with open(os.path.join(fmt, "tga_rgba_rle.tga"), "rb") as f:
        write("fuzz_image", "corrupt_truncated_rle.tga", f.read()[:-10])
    bad = bytearray(bmp(5, 3, 24, lambda y: bytes(15)))
    bad[10] = 200  # the pixels' offset past the end
    write("fuzz_image", "corrupt_offset.bmp", bytes(bad))


# ---- parameters ----

def params_corpus():
    lists = [
        "array_view<int, 1> sum, array_view<int, 1> a, array_view<int, 1> b",
        "array_view<const int, 1> a, array_view<const int, 1> b, array_view<int, 1> sum",
        "array_view<particle, 1> p, vec4 offset",
        "array_view<int, 2> o",
        "texture_view<const unorm_4, 2> src, sampler s, writeonly_texture_view<unorm_4, 2> dst",
        "texture<float, 3> t, texture_view<int_2, 1> v, float_4 c, uint n, double d",
        "array_view<int> a",
        "array_view<int, 4> a",
        "int a, float a",
        "int",
        "writeonly_texture_view<const float, 2> w",
        "texture<particle, 2> t",
        "int idx, float amp_x",
    ]
    for i, p in enumerate(lists):
        write("fuzz_params", "params_%02d" % i, p.encode())
    write("fuzz_params", "kernel_struct",
          b"Karray_view<particle, 1> p, vec4 offset\0struct particle { vec3 pos; int id; };")
    write("fuzz_params", "kernel_textures",
          b"Ktexture_view<const float_4, 2> src, sampler s, writeonly_texture_view<float_4, 2> dst\0")
    write("fuzz_params", "kernel_bad", b"Karray_view<int, 1> a, array_view<int, 1> a\0")
    write("fuzz_params", "kernel_bad_declarations", b"Kint n\0struct { broken\0")


# ---- API call sequences (the byte reads of fuzz_api.c) ----

OPS = ["create", "create", "create_invalid", "view_over_host", "section", "section", "project", "view_as",
       "reinterpret", "view_of_array", "destroy", "copy_to_host", "copy_to_host", "copy_from_host", "copy", "copy",
       "synchronize", "discard", "host_write", "get_set", "data", "kernel", "kernel", "kernel", "wait",
       "texture_create", "texture_from_host", "texture_to_host", "texture_copy", "texture_clone", "texture_destroy"]


def op(name, *args):
    return bytes([OPS.index(name)] + list(args))


def dim(n):
    """The byte that read_extent turns into n (1..12)."""
    return n - 1


def api_corpus():
    seed = [1, 2, 3, 4]
    # host view 3x4 ints, kernel in place (src = dst) on the second view, synchronize, read back
    write("fuzz_api", "host_kernel_sync",
          op("create", 0, 0, 1, dim(3), dim(4), 0, *seed) + op("kernel", 0, 0, 200, 11, 1)
          + op("synchronize", 0, 0) + op("copy_to_host", 0, 5, 0))
    # an array with data (rank 1, 10 uints) on the immediate view, kernel into a host view, copy back async
    write("fuzz_api", "array_kernel_async",
          op("create", 3, 1, 0, dim(10), 1, 1, 1, *seed, 2) + op("create", 0, 1, 0, dim(10), 2, *seed)
          + op("kernel", 0, 1, 1, 200, 3, 0) + op("copy_to_host", 1, 4, 1) + op("wait", 0, 1))
    # sections and projections of a rank-3 float view, copies (one valid, one overlapping), discard, get
    write("fuzz_api", "sections_copies",
          op("create", 0, 2, 2, dim(4), dim(3), dim(5), 2, *seed) + op("section", 0, 200, 1, 2, 0, 3, 1, 3)
          + op("project", 0, 3) + op("create", 0, 2, 2, dim(2), dim(3), dim(3), 0, *seed) + op("copy", 1, 3, 0)
          + op("section", 0, 200, 2, 2, 0, 3, 2, 3) + op("copy", 1, 4, 1) + op("discard", 2)
          + op("get_set", 0, 1, 1, 1, 1) + op("synchronize", 0, 0))
    # a view over nothing, host writes and refresh, data()
    write("fuzz_api", "nosource_refresh_data",
          op("create", 2, 0, 0, dim(12)) + op("copy_from_host", 0, 7, 0, 0, *seed)
          + op("create", 0, 0, 0, dim(8), 0, *seed) + op("host_write", 1, 2, 3, 0, *seed, 1)
          + op("data", 1, 1, 3, 0, *seed) + op("view_over_host", 1, 2, 3, 0))
    # textures: unorm_4 8-bit 6x5 with 2 levels, region copies both ways, a clone, a whole copy,
    # a region copy from level 0 to level 1 of one texture, the whole level 0 back
    region = [1, 0, 1, 1, 1, 1, 1, 2, 3, 2]
    write("fuzz_api", "textures",
          op("texture_create", 5, 3, 1, 1, dim(6), dim(5), 2, 0, 1)
          + op("texture_from_host", 0, *region, 5, 0, 0, *seed) + op("texture_to_host", 0, *region, 5, 1)
          + op("texture_clone", 0) + op("texture_copy", 0, 1, 0, 0, 0)
          + op("texture_copy", 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1)
          + op("wait", 0, 1) + op("texture_to_host", 0, 0, 5, 0))
    # a 3-D float texture of 16 bits, 3 components (emulated), copied to the host whole
    write("fuzz_api", "texture_float3",
          op("texture_create", 2, 2, 2, 2, dim(3), dim(4), dim(2), 0, 1, 0, *seed, 2)
          + op("texture_to_host", 0, 0, 5, 0))
    # device copies into strided sections: a contiguous array into a section of a host view, then a
    # section of another array into it (both strided), the host view synchronized
    write("fuzz_api", "strided_device_copies",
          op("create", 3, 0, 1, dim(4), dim(6), 1, 1, 0, *seed, 0) + op("create", 3, 0, 1, dim(4), dim(3), 1, 1, 1,
                                                                        *seed, 1)
          + op("create", 0, 0, 1, dim(4), dim(6), 0, *seed) + op("section", 2, 200, 0, 4, 1, 3) + op("copy", 1, 3, 0)
          + op("section", 0, 200, 0, 4, 2, 3) + op("copy", 4, 3, 0) + op("synchronize", 2, 0))
    # invalid calls: bad extents and types, out-of-range sections, writes to a const view
    write("fuzz_api", "invalid",
          op("create_invalid", 0, 0) + op("create_invalid", 2, 1) + op("create", 1, 0, 0, dim(5), 0, *seed)
          + op("section", 0, 200, 0, 6) + op("copy_from_host", 0, 3, 0, 0, *seed) + op("get_set", 0, 6, 0, 0, *seed)
          + op("kernel", 0, 0, 200, 1, 0))


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    fuzzers = ["fuzz_png", "fuzz_hdr", "fuzz_compare_png", "fuzz_params", "fuzz_api", "fuzz_image"]
    for f in fuzzers + ["fuzz_" + fmt for fmt in FORMAT_FUZZERS]:
        os.makedirs(os.path.join(OUT, f))
    png_corpus()
    image_corpus()
    for fmt, exts in FORMAT_FUZZERS.items():
        format_corpus(fmt, exts)
    compare_png_corpus()
    hdr_corpus()
    params_corpus()
    api_corpus()


if __name__ == "__main__":
    main()
