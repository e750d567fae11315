"""Camera frames to dice readings. Knows nothing about games.

Imports nothing itself: `jsonfile`, which the pure game engines use, must not load numpy with it.
"""
