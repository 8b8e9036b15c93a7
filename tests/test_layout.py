"""The package layout by role (DESIGN.md): moved modules keep their old import paths
as the very same module objects, and the CLI is one module per command."""
import importlib
import pickle

import pytest

import modlights as ml

MOVED = {"puzzles": "play.puzzles", "game": "play.game", "campaign": "play.campaign",
         "prng": "play.prng", "reference": "engines.reference"}


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_old_paths_are_the_moved_modules(old, new):
    moved = importlib.import_module(f"modlights.{new}")
    assert importlib.import_module(f"modlights.{old}") is moved
    assert getattr(ml, old) is moved


def test_monkeypatching_an_old_path_reaches_the_moved_module(monkeypatch):
    import modlights.puzzles as old
    monkeypatch.setattr(old, "GENERATE_BUDGET", 12345)
    assert ml.play.puzzles.GENERATE_BUDGET == 12345


def test_objects_pickle_across_the_move():
    p = ml.generate(3, 3, seed=4)
    q = pickle.loads(pickle.dumps(p))
    assert q.code == p.code and type(q) is ml.Puzzle
    assert type(q).__module__ == "modlights.play.puzzles"


def test_every_command_has_its_module():
    from modlights import cli
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = sorted(sub.choices)
    assert names == sorted(m.__name__.rsplit(".", 1)[1] for m in cli.COMMANDS)
    for m in cli.COMMANDS:
        args = parser.parse_args([m.__name__.rsplit(".", 1)[1]] +
                                 (["x"] if m.__name__.endswith("check") else []))
        assert args.func is m.run
    assert cli.main(["info", "--grid", "3x3", "--json"]) == 0
