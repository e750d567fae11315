"""`python -m vision`: the symbol-dice commands until the pip reader's `vision.cli` takes them in."""

import os

# One thread for the matrix products too (bench figures are per thread); set before numpy loads.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from vision.symbols.cli import main

raise SystemExit(main())
