"""The model's small records."""

from graphmind.model import Target, Via


def test_via_round_trips_through_its_stored_text() -> None:
    v = Via("http", "GET /orders/{}")
    assert v.encode() == "http:GET /orders/{}"
    assert Via.decode(v.encode()) == v
    assert Via.decode(None) is None and Via.decode("") is None


def test_target_reads_like_the_plain_pair_it_extends() -> None:
    t = Target(7, 2)
    assert (t[0], t[1]) == (7, 2) and t.via is None
    assert Target(7, 2, Via("dispatch", "pkg.Base.run")).via == Via("dispatch", "pkg.Base.run")
