"""One-time set-up steps for a table: dice-zone area, colour profile, symbol-dice faces. Profiles are JSON."""
