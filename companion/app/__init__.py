"""The `companion` Textual app: keeps an Alhambra Roll & Write score sheet at the table."""
