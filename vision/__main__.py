"""`python -m vision`: the symbol-dice commands until the pip reader's `vision.cli` takes them in."""

from vision.symbols.cli import main

raise SystemExit(main())
