"""The live table: a camera thread that turns frames into settled dice readings for the app."""
