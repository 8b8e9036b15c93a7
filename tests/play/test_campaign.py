"""The campaign (play/campaign.py): reproducible unique levels, opening and record rules,
saving and loading progress, and files that are corrupted, too large, nested too deeply
or of the wrong kind refused with a ValueError."""

from __future__ import annotations

import time

import pytest

import modlights as ml


def _win(c, group, level, hint=False):
    g = c.play(group, level)
    if hint:
        g.hint()
        g.reset()
    for p in c.level(group, level).solution.moves():
        g.tap(p)
    return c.record(group, level, g)


def test_campaign_levels_reproducible_and_unique():
    a, b = ml.Campaign(), ml.Campaign()
    assert a.level((0, 0), 0) == b.level((0, 0), 0)
    assert ml.Campaign("other").level((0, 0), 5) != a.level((0, 0), 5)
    for grp in [(0, 0), (2, 2), (4, 4)]:
        p = a.level(grp, 5)
        assert ml.Solver(p.board).kernel_size == 1 and p.proven
    assert a.level((4, 4), 0).board.shape[0] > a.level((0, 0), 0).board.shape[0]


def test_campaign_opening_rules():
    c = ml.Campaign()
    assert c.open_groups() == [(0, 0)] and not c.is_open((0, 1))
    with pytest.raises(ValueError, match="closed"):
        c.play((1, 0), 0)
    for i in range(4):
        assert _win(c, (0, 0), i) == 3
    assert c.stars((0, 0)) == 12 and not c.is_open((1, 0))
    assert _win(c, (0, 0), 4, hint=True) == 0  # hinted: no stars
    assert c.stars((0, 0)) == 12
    _win(c, (0, 0), 5)
    assert c.stars((0, 0)) == 15
    assert c.open_groups() == [(0, 0), (0, 1), (1, 0)]
    assert not c.is_open((1, 1))
    # a worse replay keeps the best
    g = c.play((0, 0), 0)
    for p in c.level((0, 0), 0).solution.moves():
        g.tap(p)
    pos = c.level((0, 0), 0).board.taps[0]
    g.tap(pos), g.tap(pos)
    c.record((0, 0), 0, g)
    assert c.best((0, 0), 0) == {"taps": c.level((0, 0), 0).min_taps, "stars": 3}


def test_campaign_record_rules():
    c = ml.Campaign()
    g = c.play((0, 0), 0)
    with pytest.raises(ValueError, match="not solved"):
        c.record((0, 0), 0, g)
    with pytest.raises(ValueError, match="not of level"):
        c.record((0, 0), 1, g)
    for bad in [(5, 0), (0,), "a", (0.5, 0)]:
        with pytest.raises(ValueError):
            c.level(bad, 0)
    for bad in [-1, 6, True, 1.0]:
        with pytest.raises(ValueError):
            c.level((0, 0), bad)


def test_campaign_save_load(tmp_path):
    c = ml.Campaign()
    for i in range(6):
        _win(c, (0, 0), i)
    path = tmp_path / "progress.json"
    c.save(path)
    d = ml.Campaign.load(path)
    assert d.total_stars == 18 and d.open_groups() == c.open_groups()
    assert ml.Campaign.from_json(c.to_json()).total_stars == 18
    _win(d, (1, 0), 0)
    d.save(path)
    assert (tmp_path / "progress.json.bak").exists()
    assert ml.Campaign.load(str(path) + ".bak").total_stars == 18
    assert ml.Campaign.load(path).total_stars == 21


@pytest.mark.parametrize(
    "mutate",
    [
        lambda t: t[: len(t) // 2],  # truncated
        lambda t: t.replace('"stars": 3', '"stars": 9', 1),  # out of range
        lambda t: t.replace('"taps": ', '"taps": 1', 1),  # edited: checksum
        lambda t: t.replace("modlights-campaign", "other", 1),  # wrong format
        lambda t: t.replace('"version": 1', '"version": 99', 1),
        lambda t: "\x00\xff garbage",
        lambda t: "[]",
        lambda t: t.replace('"0-0-0"', '"9-9-9"', 1),
    ],
)
def test_campaign_rejects_corrupted_files_keeping_progress(tmp_path, mutate):
    c = ml.Campaign()
    for i in range(6):
        _win(c, (0, 0), i)
    path = tmp_path / "p.json"
    c.save(path)
    good = path.read_text()
    path.write_text(mutate(good), encoding="utf-8", errors="surrogateescape")
    with pytest.raises(ValueError):
        ml.Campaign.load(path)
    with pytest.raises(ValueError):
        c.load_progress(path)
    assert c.total_stars == 18  # progress in memory kept
    c.save(path)  # and saving again repairs the file
    assert ml.Campaign.load(path).total_stars == 18
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load(tmp_path / "missing.json")


@pytest.mark.parametrize("bad", [None, 3, 3.5, ["p.json"], object(), "", "a\0b"])
def test_campaign_paths_of_the_wrong_kind_are_value_errors(tmp_path, bad):
    """Every bad path (None, numbers, lists, empty, a NUL byte) is a ValueError saying
    what is allowed, not a TypeError, for load, load_progress and save alike."""
    c = ml.Campaign()
    _win(c, (0, 0), 0)
    for call in (ml.Campaign.load, c.load_progress, c.save):
        with pytest.raises(ValueError, match="campaign save path"):
            call(bad)
    assert c.total_stars == 3 and not list(tmp_path.iterdir())


def test_campaign_bytes_and_pathlike_paths(tmp_path):
    """bytes paths work (decoded as os.fsdecode does); a missing bytes path is the
    usual "cannot read" ValueError."""
    import os

    c = ml.Campaign()
    _win(c, (0, 0), 0)
    path = os.fsencode(tmp_path / "p.json")
    c.save(path)
    c.save(path)  # a second save makes the backup
    assert ml.Campaign.load(path).to_json() == c.to_json()
    assert ml.Campaign.load(path + b".bak").to_json() == c.to_json()
    d = ml.Campaign()
    d.load_progress(path)
    assert d.total_stars == 3
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load(b"/nonexistent")
    with pytest.raises(ValueError, match="cannot write"):
        c.save(tmp_path / "no-such-dir" / "p.json")


def test_deeply_nested_json_is_a_value_error(tmp_path):
    for text in ("[" * 100000 + "]" * 100000, '{"a":' * 50000 + "1" + "}" * 50000):
        with pytest.raises(ValueError, match="nested too deeply|not valid JSON"):
            ml.Campaign.from_json(text)
        f = tmp_path / "deep.json"
        f.write_text(text)
        with pytest.raises(ValueError):
            ml.Campaign.load(f)


def test_load_reads_with_a_byte_limit():
    t = time.perf_counter()
    with pytest.raises(ValueError, match="too large"):
        ml.Campaign.load("/dev/zero")
    c = ml.Campaign()
    with pytest.raises(ValueError, match="too large"):
        c.load_progress("/dev/zero")
    assert time.perf_counter() - t < 5
    with pytest.raises(ValueError, match="cannot read"):
        ml.Campaign.load("/nonexistent/save.json")
