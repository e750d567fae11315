"""Widgets of the companion app; each reports upward with messages and renders from the engine's state."""
