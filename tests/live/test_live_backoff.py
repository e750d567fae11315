from companion.live.backoff import Backoff


def test_backoff_grows_to_its_ceiling_and_resets() -> None:
    backoff = Backoff(first=0.5, ceiling=3.0)
    assert [backoff.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    backoff.reset()
    assert backoff.next_delay() == 0.5
