"""Image files to BGR frames, with one clear error per bad file (never a traceback, never a silent skip)."""

from __future__ import annotations

import os
import re
import struct
import tempfile
import threading
from pathlib import Path

import cv2
import numpy as np

from jsonfile import JsonFileError, Limits, read_bytes
from vision.reading import Image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

MAX_PIXELS = 40_000_000
"""Larger images are refused: a 40-megapixel frame is already far past any webcam, and decoding a
decompression bomb would take the whole machine's memory."""
MIN_SIDE = 8
"""Smaller images are refused: no die fits in them, and they are a mistake (an icon, a placeholder)."""
MAX_BYTES = 200_000_000
"""Larger files are refused unread: a 40-megapixel photo is a few tens of megabytes even as an uncompressed
BMP, and reading a file whole before decoding it would let a huge one (or a disk image) take the memory."""


class ImageError(ValueError):
    """A file that cannot be used as a frame; the message names the file and says why."""


def image_files(folder: Path) -> list[Path]:
    """The image files of a folder, sorted by name (other files are not frames)."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def no_image_files(name: str) -> str:
    """What is said of a folder (or folders) holding no image file."""
    return f"{name}: no image files (looked for {', '.join(IMAGE_SUFFIXES)})"


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files as given and the image files inside folders, in order; a missing path is kept so that reading
    it reports the error in its place."""
    out: list[Path] = []
    for path in paths:
        out += image_files(path) if path.is_dir() else [path]
    return out


def load_image(path: Path) -> Image:
    """The image at `path` as a BGR uint8 array (alpha dropped, grey expanded); its size is read from the
    file's header and checked before the pixels are decoded, and a JPEG libjpeg finds damaged is refused."""
    data = read_file(path)
    if not data:
        raise ImageError(f"{path}: empty file")
    size = image_size(data)
    if size is None:
        raise ImageError(f"{path}: not an image, or a truncated one")
    width, height = size
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"{path}: too large ({width}x{height}, {width * height / 1e6:.0f} megapixels; at most 40)"
        )
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"{path}: too small ({width}x{height} pixels; at least {MIN_SIDE} a side)")
    image, damage = decode(data)
    if damage:
        raise ImageError(f"{path}: a damaged JPEG (libjpeg: {damage})")
    if image is None or min(image.shape[:2]) < MIN_SIDE:
        raise ImageError(f"{path}: not an image, or a truncated one")
    return image


_STDERR_BORROWED = threading.Lock()
"""Held while a decode borrows file descriptor 2: two at once would restore each other's borrowed one."""
_LIBJPEG_DAMAGE = re.compile(
    rb"(?:Corrupt JPEG data: |Premature end of JPEG file|Inconsistent progression )[^\n]*\n?"
)
"""libjpeg's warnings of damaged pixels (it has others, on harmless oddities of the headers); found anywhere,
as another thread may have written part of a line just before."""


def decode(data: bytes) -> tuple[Image | None, str]:
    """The pixels of an image file's bytes (None where they do not decode) and what libjpeg found damaged
    in them ("" for nothing). libjpeg decodes a damaged JPEG anyway (grey below the damage) and says so only
    on stderr, naming no file: its line is heard there and returned instead."""
    if not data.startswith(b"\xff\xd8"):
        return _decoded(data), ""
    with _STDERR_BORROWED, tempfile.TemporaryFile() as heard:  # a file, not a pipe: writes never block
        try:
            kept = os.dup(2)
        except OSError:  # no stderr (a daemon's): libjpeg's line goes nowhere, the pixels are all there is
            return _decoded(data), ""
        os.dup2(heard.fileno(), 2)
        try:
            image = _decoded(data)
        finally:
            os.dup2(kept, 2)
            os.close(kept)
        heard.seek(0)
        said = heard.read()
    damage = _LIBJPEG_DAMAGE.search(said)
    others = _LIBJPEG_DAMAGE.sub(b"", said)
    if others:  # another thread's or library's output, written while stderr was borrowed: not lost
        with open(2, "wb", closefd=False) as stderr:
            stderr.write(others)
    if damage is None:
        return image, ""
    text = damage[0].decode(errors="replace").removeprefix("Corrupt JPEG data: ").strip()
    return image, text[:1].lower() + text[1:]


def _decoded(data: bytes) -> Image | None:
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # some decoders assert on damaged data instead of failing
        return None
    return None if image is None else np.asarray(image, np.uint8)


def read_file(path: Path) -> bytes:
    """The bytes of the image file at `path`, refused unread where it is no regular file or over
    `MAX_BYTES`."""
    try:
        return read_bytes(path, Limits(size=MAX_BYTES), "an image file")
    except JsonFileError as err:
        raise ImageError(str(err)) from None


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the header of a PNG, JPEG, BMP, WebP or TIFF file; None for anything else or
    a header cut short."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            width, height = struct.unpack_from(">II", data, 16)
            return width, height
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data.startswith(b"BM"):
            old_header = struct.unpack_from("<I", data, 14)[0] == 12  # OS/2's: 16-bit sides
            width, height = struct.unpack_from("<HH" if old_header else "<ii", data, 18)
            return abs(width), abs(height)  # a negative height is a top-down bitmap
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:4] in (b"II*\0", b"MM\0*"):
            return _tiff_size(data)
    except (struct.error, IndexError):  # a header cut short
        return None
    return None


_JPEG_FRAMES = {*range(0xC0, 0xC4), *range(0xC5, 0xC8), *range(0xC9, 0xCC), *range(0xCD, 0xD0)}
"""Start-of-frame markers: the segment that holds the image's size."""


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while True:
        while data[at] == 0xFF:  # markers may be padded with 0xFF bytes
            at += 1
        marker, at = data[at], at + 1
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack_from(">HH", data, at + 3)
            return width, height
        if marker == 0xDA:  # the pixels start, and no frame header came before them
            return None
        if not (0xD0 <= marker <= 0xD7 or marker == 0x01):  # these markers have no segment
            at += struct.unpack_from(">H", data, at)[0]


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack_from("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = struct.unpack_from("<I", data, 21)[0]
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        sides = data[24:30]
        if len(sides) < 6:
            return None
        return int.from_bytes(sides[:3], "little") + 1, int.from_bytes(sides[3:], "little") + 1
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    at = struct.unpack_from(f"{order}I", data, 4)[0]
    sides: dict[int, int] = {}
    for n in range(struct.unpack_from(f"{order}H", data, at)[0]):
        tag, kind = struct.unpack_from(f"{order}HH", data, at + 2 + 12 * n)
        if tag in (256, 257):  # ImageWidth, ImageLength: a SHORT or a LONG
            sides[tag] = struct.unpack_from(f"{order}{'H' if kind == 3 else 'I'}", data, at + 10 + 12 * n)[0]
    if len(sides) < 2:
        return None
    return sides[256], sides[257]
