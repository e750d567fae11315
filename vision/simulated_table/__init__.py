"""The simulated table: scenes of dice with known truth, for training, tests and the demo (a frame source).

Face painters (the pluggable die-face art)
------------------------------------------
The scene composer never draws a face itself. Each die names a *painter*, an object with

- ``kind``: ``"pip"`` or ``"symbol"`` (copied into the truth of every die it paints);
- ``labels``: the tuple of faces it can draw (``"1"``..``"6"`` for pips, face names for symbol dice);
- ``paint(label, size, body, ink, rng) -> image``: a ``size``×``size`` BGR uint8 image of the face showing
  ``label``, drawn edge to edge on the ``body`` colour with ``ink`` for the art, upright (the composer
  rotates, tilts and lights it; rounded corners, sides, shadow and glints are added by the composer too).

``vision.simulated_table.painters.blank_face`` gives the shaded plastic face that painters usually start from.
Painters here: ``PipPainter`` (pip faces) and ``GlyphPainter`` (random non-pip art, so the detector learns
that symbol dice are dice). Symbol-dice painters live in ``vision.simulated_table.symbol_art``.

Entry points: ``random_scene`` (a random table with dice), ``draw_scene`` (given table, dice and look),
``RenderedVideo`` (dice rolling then settling, a frame source).
"""

from vision.simulated_table.painters import FacePainter, GlyphPainter, PipPainter, blank_face
from vision.simulated_table.scene import (
    DieSpec,
    Look,
    Placement,
    Scene,
    TrueDie,
    draw_scene,
    random_die,
    random_look,
    random_scene,
    random_table,
)

__all__ = [
    "DieSpec",
    "FacePainter",
    "GlyphPainter",
    "Look",
    "PipPainter",
    "Placement",
    "Scene",
    "TrueDie",
    "blank_face",
    "draw_scene",
    "random_die",
    "random_look",
    "random_scene",
    "random_table",
]
