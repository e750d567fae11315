"""Pure game engines: no UI and no OpenCV imports. State is a fold over events."""
