"""The `companion` Textual app: keeps the score at the table of Alhambra Roll & Write and of the Alhambra and
Carcassonne dice games."""
