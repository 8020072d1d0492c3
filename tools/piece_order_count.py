"""CPU count behind ``notes/nvfp4-gemm-next.md`` item 28 zeros: can each stream-K CTA choose
the order of its two cut pieces so that every tile has at most one piece ending with the
ranges? Such a tile's finisher would wait for no other CTA's partial after the main loops.

A CTA's range ``[c U / P, (c + 1) U / P)`` holds at most two cut pieces: its first (a tile's
last k-tiles, "tail") and its last (the next tile's first k-tiles, "head"), or one piece
inside a tile ("middle", the whole range). Run forward, the tail ends early and the head last;
reversed, the other way round. A middle always ends last. So a tile with two middles has two
pieces ending last whatever the order. A tile with one middle needs its head's CTA reversed
and its tail's CTA forward. Where one CTA holds the tail of one such tile and the head of the
next, the two demands conflict. The counts below are for issue 5's open points; every one has
conflicts or tiles of two middles."""


def tile_pieces(tiles: int, units: int, ctas: int) -> list[list[tuple[int, str]]]:
    """(CTA, kind) of each tile's pieces on even stream-K ranges."""
    total = tiles * units
    starts = [c * total // ctas for c in range(ctas)] + [total]
    pieces = [[] for _ in range(tiles)]
    for c in range(ctas):
        s, e = starts[c], starts[c + 1]
        for t in range(s // units, (e - 1) // units + 1):
            a, b = max(s, t * units), min(e, (t + 1) * units)
            first, last = a == t * units, b == (t + 1) * units
            kind = "whole" if first and last else "head" if first else "tail" if last \
                else "middle"
            pieces[t].append((c, kind))
    return pieces


def count(tiles: int, units: int, ctas: int) -> tuple[int, int]:
    """(tiles with two or more middles, conflicting order demands of one-middle tiles)."""
    two_middles = conflicts = 0
    order: dict[int, str] = {}
    for ps in tile_pieces(tiles, units, ctas):
        kinds = [kind for _, kind in ps]
        if kinds.count("middle") >= 2:
            two_middles += 1
            continue
        if kinds.count("middle") == 1:
            for c, kind in ps:
                want = {"head": "reversed", "tail": "forward"}.get(kind)
                if want:
                    conflicts += order.setdefault(c, want) != want
    return two_middles, conflicts


if __name__ == "__main__":
    # (point, row tiles, units a tile: k-tiles of the launch's K groups)
    for name, tiles, units in [("9216x7168 M = 16 / 32 / 64", 72, 112),
                               ("5120x17408 M = 16 / 32", 40, 136),
                               ("7168x18432 M = 16 / 32", 56, 144),
                               ("7168x18432 M = 64", 56, 288)]:
        two, bad = count(tiles, units, 132)
        print(f"{name}: {tiles} tiles, {two} with two middles or more, {bad} conflicts")
