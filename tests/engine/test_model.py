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


def test_a_files_symbol_ids_are_neighbours() -> None:
    """A symbol id's high FILE_BITS bits are its file's: a file's symbols sit together in the
    tables keyed by id (an Enter moves the rows below it: few pages). Ids are signed 64-bit, the
    same for the same (path, qualified name, ordinal), and differ within a file."""
    from graphmind.model import FILE_BITS, symbol_id

    paths = [f"pkg/m{i}.py" for i in range(200)]
    ids = {p: [symbol_id(p, f"m.f{j}", j % 3) for j in range(50)] for p in paths}
    for p, xs in ids.items():
        assert all(-(1 << 63) <= x < (1 << 63) for x in xs)
        assert len(set(xs)) == len(xs)
        assert len({(x % (1 << 64)) >> (64 - FILE_BITS) for x in xs}) == 1, p
        assert xs == [symbol_id(p, f"m.f{j}", j % 3) for j in range(50)]
    # in SQLite's (signed) order the ids of a file (of the files sharing its high bits) are one
    # run: no other file's id falls between them
    def high(x: int) -> int:
        return (x % (1 << 64)) >> (64 - FILE_BITS)

    order = sorted(x for xs in ids.values() for x in xs)
    runs = [high(x) for i, x in enumerate(order) if i == 0 or high(order[i - 1]) != high(x)]
    assert len(runs) == len(set(runs))
