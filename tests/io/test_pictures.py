"""Pictures as files from the command line (io/pictures.py): ``--svg`` / ``--png`` write
what the library draws (read back and checked against the printed state and taps), the
checks before any work (too large, bad scale, no Pillow, an unwritable path) exit 2 with
one line, and large boards leave their grids to the picture."""

import json
import sys

import numpy as np

import modlights as ml
from modlights.cli import main
from picture_checks import Picture, check_png, needs_pillow, read_png


@needs_pillow
def test_cli_svg_and_png(tmp_path, capsys):
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    args = [
        "solve",
        "--grid",
        "4x5",
        "--states",
        "3",
        "--seed",
        "4",
        "--holes",
        "0,0",
        "--locked",
        "1,1",
        "--svg",
        str(svg),
        "--png",
        str(png),
    ]
    assert main(args + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    b = ml.Board.grid(4, 5, 3, holes=[(0, 0)], locked=[(1, 1)])
    state, taps = np.array(doc["state"]), np.array(doc["taps"])
    pic = Picture(svg.read_text(), b)
    assert all(pic.tiles[p] == state[p] for p in b.cells) and set(pic.tiles) == set(b.cells)
    assert pic.taps == {tuple(map(int, q)): int(taps[tuple(q)]) for q in np.argwhere(taps)}
    assert pic.locks == {(1, 1)}
    px, _ = read_png(png)
    np.testing.assert_array_equal(px[:, :5], np.where(b.holes, 3, state))
    np.testing.assert_array_equal(px[:, 6:], np.where(b.holes, 3, taps))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"picture: {svg}" in out and f"picture: {png}" in out


@needs_pillow
def test_cli_png_scale_frames_locks(tmp_path, capsys):
    png = tmp_path / "s.png"
    args = [
        "solve",
        "--grid",
        "4x5",
        "--states",
        "3",
        "--seed",
        "4",
        "--locked",
        "1,1 2,3",
        "--png",
        str(png),
        "--png-scale",
        "6",
        "--json",
    ]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    b = ml.Board.grid(4, 5, 3, locked=[(1, 1), (2, 3)])
    check_png(b, np.array(doc["state"]), np.array(doc["taps"]), scale=6)
    px, _ = read_png(png)
    assert px.shape == (4 * 6, 11 * 6)
    tiles = px[:24, :30].reshape(4, 6, 5, 6)
    np.testing.assert_array_equal((tiles[:, 0, :, :] == 4).all(axis=2), b.locked)
    for bad in ("0", "65", "x"):
        rc = main(args[:-2] + ["--png-scale", bad])
        err = capsys.readouterr().err
        assert rc == 2 and len(err.strip().splitlines()) == 1 and "--png-scale" in err
    rc = main(
        ["solve", "--grid", "2000x2000", "--seed", "1", "--png", str(png), "--png-scale", "64"]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "smaller scale" in err


def test_cli_picture_errors(tmp_path, capsys, monkeypatch):
    out = tmp_path / "big.svg"
    rc = main(["solve", "--grid", "201x200", "--seed", "1", "--svg", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "PNG" in err
    assert not out.exists()
    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--svg", str(tmp_path / "no" / "x.svg")])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "cannot write" in err
    monkeypatch.setitem(sys.modules, "PIL", None)
    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--png", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert rc == 2 and 'pip install "modlights[png]"' in err and len(err.strip().splitlines()) == 1


def test_cli_large_boards_leave_the_grids_to_the_picture(tmp_path, capsys):
    svg = tmp_path / "b.svg"
    base = ["solve", "--seed", "2", "--no-minimal", "--svg", str(svg)]
    assert main(base + ["--grid", "101x100"]) == 0
    out = capsys.readouterr().out
    assert out.count("(not printed: 10100 tiles; see") == 2 and f"picture: {svg}" in out
    assert len(Picture(svg.read_text(), ml.Board.grid(101, 100)).tiles) == 10100
    assert main(base + ["--grid", "100x100"]) == 0
    out = capsys.readouterr().out
    assert "not printed" not in out and len(out.splitlines()) > 200


def test_png_scale_without_png_is_exit_2(capsys):
    """--png-scale without --png is exit 2 with one line naming --png FILE."""
    from modlights.cli import main

    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--png-scale", "4"])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--png FILE" in err
    assert main(["solve", "--grid", "3x3", "--seed", "1", "--png-scale", "1"]) == 0
