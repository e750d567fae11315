"""Image files to BGR frames, with one clear error per bad file (never a traceback, never a silent skip)."""

from __future__ import annotations

import os
import re
import struct
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from jsonfile import JsonFileError, Limits, read_bytes
from vision.reading import Box, DiceReading, Image

IMAGE_SUFFIXES = (
    ".jpg",
    ".jpeg",
    ".jfif",
    ".jpe",
    ".png",
    ".bmp",
    ".webp",
    ".tif",
    ".tiff",
    ".gif",
    ".avif",
    ".jp2",
)
UNREAD_SUFFIXES = (".heic", ".heif")
"""Photos of a format not read (an iPhone's HEIC): kept among a folder's image files, so that reading each
says why and what to do instead of leaving it out unseen (one holding a JPEG, as some exports do, is read)."""

MAX_PIXELS = 40_000_000
"""Larger images are refused: a 40-megapixel frame is already far past any webcam, and decoding a
decompression bomb would take the whole machine's memory."""
MAX_JPEG_PIXELS = 256_000_000
"""A larger JPEG, up to this (a phone's 200-megapixel photo), is decoded at 1/2, 1/4 or 1/8 of its size, as
libjpeg does cheaply, to fit `MAX_PIXELS`; larger still it is refused (a progressive one's coefficients
alone would be gigabytes)."""
_READ_AT = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}
_READ_AT[8] = cv2.IMREAD_REDUCED_COLOR_8
"""How OpenCV decodes an image at 1/N of its sides."""
MIN_SIDE = 8
"""Smaller images are refused: no die fits in them, and they are a mistake (an icon, a placeholder)."""
MAX_BYTES = 200_000_000
"""Larger files are refused unread: a 40-megapixel photo is a few tens of megabytes even as an uncompressed
BMP, and reading a file whole before decoding it would let a huge one (or a disk image) take the memory."""


class ImageError(ValueError):
    """A file that cannot be used as a frame; the message names the file and says why."""


def image_files(folder: Path) -> list[Path]:
    """The image files of a folder, photos of a format not read among them (`UNREAD_SUFFIXES`), sorted by
    name (other files are not frames)."""
    kept = IMAGE_SUFFIXES + UNREAD_SUFFIXES
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in kept)


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
    """The image at `path` as a BGR uint8 array (alpha dropped, grey expanded), a JPEG over `MAX_PIXELS`
    decoded smaller (`read_image`)."""
    return read_image(path)[0]


def read_image(path: Path) -> tuple[Image, int]:
    """The image at `path` as a BGR uint8 array, and N where it was decoded at 1/N of its sides (a JPEG over
    `MAX_PIXELS`; else 1): what is found in it is at N times its pixels in the file's. Its size is read from
    the file's header and checked before the pixels are decoded, and a JPEG libjpeg finds damaged is
    refused."""
    data = read_file(path)
    if not data:
        raise ImageError(f"{path}: empty file")
    size = image_size(data)
    if size is None:
        raise ImageError(f"{path}: {unread_format(data) or 'not an image, or a truncated one'}")
    width, height = size
    shrink = _shrink(data, width, height)
    if shrink is None:
        most = "256 as a JPEG" if data.startswith(b"\xff\xd8") else "40"
        raise ImageError(
            f"{path}: too large ({width}x{height}, {width * height / 1e6:.0f} megapixels; at most {most})"
        )
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"{path}: too small ({width}x{height} pixels; at least {MIN_SIDE} a side)")
    image, damage = decode(data, shrink)
    if damage:
        raise ImageError(f"{path}: a damaged JPEG (libjpeg: {damage})")
    if image is None or min(image.shape[:2]) < MIN_SIDE:
        raise ImageError(f"{path}: not an image, or a truncated one")
    return image, shrink


def _shrink(data: bytes, width: int, height: int) -> int | None:
    """1 for an image within `MAX_PIXELS`; for a larger JPEG within `MAX_JPEG_PIXELS`, the least of 2, 4, 8
    that brings its decoded sides (rounded up, as libjpeg does) within it; None for one too large."""
    if width * height <= MAX_PIXELS:
        return 1
    if not data.startswith(b"\xff\xd8") or width * height > MAX_JPEG_PIXELS:
        return None
    return next(n for n in (2, 4, 8) if -(-width // n) * -(-height // n) <= MAX_PIXELS)


_HEIF_BRANDS = {
    b"heic",
    b"heix",
    b"heim",
    b"heis",
    b"hevc",
    b"hevx",
    b"hevm",
    b"hevs",
    b"mif1",
    b"msf1",
    b"heif",
}
_AVIF_BRANDS = {b"avif", b"avis"}
"""Brands of an ISO media file (MP4's container) that hold still images: HEIC (HEVC, which OpenCV does not
decode) or AVIF (which it does); an AVIF lists mif1 among its brands too."""


def unread_format(data: bytes) -> str | None:
    """What a file no image is read from holds, with what to do, where its first bytes tell (a HEIC photo, a
    video); None otherwise."""
    if data[4:8] == b"ftyp":
        brands = _brands(data)
        if brands & _AVIF_BRANDS:
            return None  # an AVIF photo whose header is cut short
        if brands & _HEIF_BRANDS:
            return (
                "a HEIC photo, which is not read: export it as JPEG (an iPhone takes JPEGs when Settings >"
                " Camera > Formats is Most Compatible)"
            )
        return "a video, not a photo (a video is given as the camera: companion --camera FILE)"
    if data.startswith(b"\x1a\x45\xdf\xa3") or (data[:4] == b"RIFF" and data[8:12] == b"AVI "):
        return "a video, not a photo (a video is given as the camera: companion --camera FILE)"
    return None


def _brands(data: bytes) -> set[bytes]:
    """The major and compatible brands of an ISO media file's `ftyp` box (the minor version between them is
    no brand)."""
    end = min(int.from_bytes(data[:4], "big"), len(data), 256)
    return {data[8:12]} | {data[at : at + 4] for at in range(16, end - 3, 4)}


_STDERR_BORROWED = threading.Lock()
"""Held while a decode borrows file descriptor 2: two at once would restore each other's borrowed one."""
_LIBJPEG_DAMAGE = re.compile(
    rb"(?:Corrupt JPEG data: |Premature end of JPEG file|Inconsistent progression )[^\n]*\n?"
)
"""libjpeg's warnings of damaged pixels (it has others, on harmless oddities of the headers); found anywhere,
as another thread may have written part of a line just before."""


def decode(data: bytes, shrink: int = 1) -> tuple[Image | None, str]:
    """The pixels of an image file's bytes at 1/`shrink` of its sides (1, 2, 4 or 8; None where they do not
    decode) and what libjpeg found damaged in them ("" for nothing). libjpeg decodes a damaged JPEG anyway
    (grey below the damage) and says so only on stderr, naming no file: its line is heard there and returned
    instead."""
    if not data.startswith(b"\xff\xd8"):
        return _decoded(data, _READ_AT[shrink]), ""
    with _STDERR_BORROWED, tempfile.TemporaryFile() as heard:  # a file, not a pipe: writes never block
        try:
            kept = os.dup(2)
        except OSError:  # no stderr (a daemon's): libjpeg's line goes nowhere, the pixels are all there is
            return _decoded(data, _READ_AT[shrink]), ""
        os.dup2(heard.fileno(), 2)
        try:
            image = _decoded(data, _READ_AT[shrink])
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


def _decoded(data: bytes, flags: int) -> Image | None:
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
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
    """Width and height from the header of a PNG, JPEG, BMP, WebP, TIFF, GIF, AVIF or JPEG 2000 file; None for
    anything else or a header cut short."""
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
        if data[:6] in (b"GIF87a", b"GIF89a"):
            width, height = struct.unpack_from("<HH", data, 6)  # the logical screen: every frame lies in it
            return width, height
        if data[4:8] == b"ftyp" and _brands(data) & _AVIF_BRANDS:
            return _avif_size(data)
        if data.startswith(b"\0\0\0\x0cjP  \r\n\x87\n"):
            return _jp2_size(data)
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


def _avif_size(data: bytes) -> tuple[int, int] | None:
    """The largest of the sizes its `ispe` boxes give (the whole image's, its tiles' and its thumbnail's): at
    the start of the file, where the `meta` box that holds them is written."""
    head = data[:1_000_000]
    sides = [struct.unpack_from(">II", head, at + 8) for at in _found(head, b"ispe")]
    return max(sides, key=lambda side: side[0] * side[1], default=None)


def _jp2_size(data: bytes) -> tuple[int, int] | None:
    at = data.find(b"ihdr", 0, 1_000)
    if at < 0:
        return None
    height, width = struct.unpack_from(">II", data, at + 4)
    return width, height


def _found(data: bytes, word: bytes) -> list[int]:
    """Where `word` starts in `data`, each place."""
    places, at = [], data.find(word)
    while at >= 0:
        places.append(at)
        at = data.find(word, at + 1)
    return places


def in_file_pixels(reading: DiceReading, shrink: int) -> DiceReading:
    """`reading` of an image decoded at 1/`shrink` of its sides (`read_image`), its boxes in the file's
    pixels."""
    if shrink == 1:
        return reading
    dice = tuple(
        replace(d, box=Box(d.box.x0 * shrink, d.box.y0 * shrink, d.box.x1 * shrink, d.box.y1 * shrink))
        for d in reading.dice
    )
    return replace(reading, dice=dice)
