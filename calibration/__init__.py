"""One-time set-up steps for a table: the dice zone (`table_area`) and the guided camera step that teaches
symbol-dice faces (`faces`). What the reader consumes, colour and symbol profiles, lives with the reader in
`vision`; the steps here make them."""
