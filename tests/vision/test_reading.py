from vision.reading import Box, DiceReading, Die


def test_die_json_follows_the_read_contract() -> None:
    pip = Die(box=Box(1, 2, 30, 40), kind="pip", color="yellow", confidence=0.987654, value=4)
    assert pip.to_json() == {
        "box": [1, 2, 30, 40],
        "kind": "pip",
        "value": 4,
        "color": "yellow",
        "confidence": 0.9877,
    }
    sym = Die(box=Box(0, 0, 10, 10), kind="symbol", color="white", confidence=0.5, face="tower", rotation=90)
    out = sym.to_json()
    assert out["face"] == "tower" and out["rotation"] == 90 and "value" not in out


def test_reading_values_filter_by_colour() -> None:
    dice = (
        Die(Box(0, 0, 1, 1), "pip", "yellow", 1.0, value=3),
        Die(Box(0, 0, 1, 1), "pip", "blue", 1.0, value=5),
    )
    reading = DiceReading(dice=dice, time=0.0)
    assert reading.values("blue") == [5]
    assert reading.values() == [3, 5]
