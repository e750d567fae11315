"""Game rules (pure Python, in `games/`) and the Textual app that keeps the score sheet."""
