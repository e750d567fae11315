"""`python -m vision`: see `vision.cli`."""

from vision.cli import main

raise SystemExit(main())
