"""Campaign: groups of levels on a 5 x 5 map, opened by stars; progress in JSON.

The map has 5 x 5 groups, ``(row, col)``; group (0, 0) is open from the start. A
group holds ``LEVELS_PER_GROUP`` (6) levels worth 3 stars each; earning
``STARS_TO_OPEN`` (15) stars in a group opens its up/down/left/right neighbours.
Levels get larger and harder with the distance ``row + col`` from the first group;
they are generated on demand from the campaign's seed with :func:`generate`, so the
same seed gives the same levels on every machine.

Progress (best taps and stars per level) saves to JSON with a format name, version
and CRC32 of its contents. ``Campaign.load`` and ``Campaign.load_progress`` check
everything before they change anything, so a corrupted or tampered file raises a
ValueError that says what is wrong and leaves the progress in memory (and on disk)
as it was; ``save`` writes atomically and keeps the previous file as ``PATH.bak``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import zlib
from typing import Any

from modlights.model.validation import as_int_pair, read_limited
from modlights.play.game import Game
from modlights.play.prng import SplitMix64
from modlights.play.puzzles import Puzzle, generate

__all__ = ["Campaign", "MAP_SIZE", "LEVELS_PER_GROUP", "STARS_TO_OPEN"]

MAP_SIZE = 5
LEVELS_PER_GROUP = 6
STARS_TO_OPEN = 15
SAVE_FORMAT = "modlights-campaign"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 1 << 20

# Board by distance row + col from the first group (scheme v1; append-only):
# (rows, cols, states, pattern, locked, holes)
_BOARDS = (
    (3, 3, 2, "cross", 0, 0),
    (4, 4, 2, "cross", 4, 0),
    (5, 5, 2, "cross", 2, 0),
    (5, 5, 3, "cross", 3, 0),
    (6, 6, 2, "cross", 0, 0),
    (6, 6, 3, "cross", 2, 2),
    (7, 7, 2, "cross", 0, 0),
    (6, 6, 4, "cross", 0, 0),
    (7, 7, 3, "cross", 2, 0),
)
_LEVEL_DIFFICULTY = ("easy", "easy", "medium", "medium", "hard", "hard")
_HARDER = {"easy": "medium", "medium": "hard", "hard": "expert", "expert": "expert"}
_ID_RE = re.compile(r"([0-4])-([0-4])-([0-5])")


def _check_group(group: Any) -> tuple[int, int]:
    """A group (row, col) on the map, else ValueError."""
    r, c = as_int_pair(group, "a group")
    if not (0 <= r < MAP_SIZE and 0 <= c < MAP_SIZE):
        raise ValueError(f"group {(r, c)} is off the {MAP_SIZE}x{MAP_SIZE} map")
    return r, c


def _check_level(level: Any) -> int:
    """A level index 0..LEVELS_PER_GROUP-1 (an int, not a bool), else ValueError."""
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level < LEVELS_PER_GROUP:
        raise ValueError(f"level must be an int 0..{LEVELS_PER_GROUP - 1}, got {level!r}")
    return level


class Campaign:
    """A campaign: ``Campaign(seed="modlights-campaign-v1")``.

    ``level(group, i)`` -> Puzzle; ``play(group, i)`` -> Game; ``record(group, i, game)``
    stores a solved game's taps and stars (best kept); ``is_open(group)``,
    ``open_groups()``, ``stars(group)``, ``total_stars``; ``save(path)``,
    ``Campaign.load(path)``, ``load_progress(path)``, ``to_json()``, ``from_json(text)``.

    Examples
    --------
    >>> c = ml.Campaign()
    >>> p = c.level((0, 0), 0)
    >>> p.board.shape, p.proven
    ((3, 3), True)
    >>> c.is_open((0, 0)), c.total_stars
    (True, 0)
    >>> g = c.play((0, 0), 0)
    >>> for pos in ml.Solver(p.board).solve(p.start).moves():
    ...     _ = g.tap(pos)
    >>> c.record((0, 0), 0, g)
    3
    >>> c.best((0, 0), 0) == {"taps": p.min_taps, "stars": 3}, c.total_stars
    (True, 3)
    >>> ml.Campaign.from_json(c.to_json()).total_stars
    3
    """

    def __init__(self, seed: Any = "modlights-campaign-v1"):
        if not isinstance(seed, (str, int)) or isinstance(seed, bool):
            raise ValueError(f"campaign seed must be a str or int, got {seed!r}")
        self.seed = seed
        self._progress: dict[str, dict[str, int]] = {}
        self._levels: dict[str, Puzzle] = {}

    # ------------------------------------------------------------------ levels
    @staticmethod
    def _id(group: Any, level: Any) -> str:
        """The key of a level in the progress and the cache: "row-col-level"."""
        r, c = _check_group(group)
        return f"{r}-{c}-{_check_level(level)}"

    def level(self, group: Any, level: int) -> Puzzle:
        """The puzzle of a level (generated on first use, the same for the same seed)."""
        key = self._id(group, level)
        if key not in self._levels:
            r, c = _check_group(group)
            rows, cols, n, pat, lk, hl = _BOARDS[r + c]
            diff = _LEVEL_DIFFICULTY[level]
            if r + c >= 6:
                diff = _HARDER[diff]
            seed = SplitMix64(f"{self.seed}:{key}").next_u64()
            self._levels[key] = generate(rows, cols, n, pat, diff, locked=lk, holes=hl, seed=seed)
        return self._levels[key]

    def levels(self, group: Any) -> list[Puzzle]:
        """The puzzles of every level of a group."""
        return [self.level(group, i) for i in range(LEVELS_PER_GROUP)]

    def play(self, group: Any, level: int) -> Game:
        """A Game of an open level (ValueError for a closed group)."""
        self._require_open(group)
        return Game(self.level(group, level))

    # ------------------------------------------------------------------ progress
    def stars(self, group: Any) -> int:
        """The stars earned in a group (its levels' best)."""
        r, c = _check_group(group)
        return sum(
            self._progress.get(f"{r}-{c}-{i}", {}).get("stars", 0) for i in range(LEVELS_PER_GROUP)
        )

    @property
    def total_stars(self) -> int:
        """The stars earned in the whole campaign."""
        return sum(v["stars"] for v in self._progress.values())

    def best(self, group: Any, level: int) -> dict | None:
        """{"taps": best taps, "stars": best stars} of a solved level, else None."""
        v = self._progress.get(self._id(group, level))
        return dict(v) if v else None

    def is_open(self, group: Any) -> bool:
        """Whether a group can be played."""
        r, c = _check_group(group)
        return (r, c) in self._open_set()

    def open_groups(self) -> list[tuple[int, int]]:
        """The open groups, sorted."""
        return sorted(self._open_set())

    def _open_set(self) -> set:
        """The groups reachable from (0, 0) through groups of ``STARS_TO_OPEN`` stars.
        O(groups x levels)."""
        opened = {(0, 0)}
        frontier = [(0, 0)]
        while frontier:
            r, c = frontier.pop()
            if self.stars((r, c)) < STARS_TO_OPEN:
                continue
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                q = (r + dr, c + dc)
                if 0 <= q[0] < MAP_SIZE and 0 <= q[1] < MAP_SIZE and q not in opened:
                    opened.add(q)
                    frontier.append(q)
        return opened

    def _require_open(self, group: Any) -> None:
        """ValueError (saying how to open it) unless ``group`` is open."""
        if not self.is_open(group):
            raise ValueError(
                f"group {tuple(group)} is closed: earn {STARS_TO_OPEN} stars in "
                "a neighbouring open group to open it"
            )

    def record(self, group: Any, level: int, game: Game) -> int:
        """Store a finished game of this level; keeps the best taps and stars. Returns
        the level's stars. ValueError for a closed group, an unsolved game or a game
        of another puzzle."""
        key = self._id(group, level)
        self._require_open(group)
        if not isinstance(game, Game):
            raise ValueError(f"record needs a Game, got {type(game).__name__}")
        if game.puzzle != self.level(group, level):
            raise ValueError(f"that game is not of level {key}")
        if not game.solved:
            raise ValueError("the game is not solved yet")
        old = self._progress.get(key)
        taps, stars = game.taps_used, game.stars
        if old:
            taps, stars = min(taps, old["taps"]), max(stars, old["stars"])
        self._progress[key] = {"taps": int(taps), "stars": int(stars)}
        return stars

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> str:
        """The progress as JSON text (format name, version, seed, CRC32)."""
        progress = {k: self._progress[k] for k in sorted(self._progress)}
        body = json.dumps(
            {"seed": self.seed, "progress": progress}, sort_keys=True, separators=(",", ":")
        )
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "version": SAVE_VERSION,
                "seed": self.seed,
                "progress": progress,
                "crc32": zlib.crc32(body.encode()),
            },
            indent=1,
            sort_keys=True,
        )

    @classmethod
    def _parse(cls, text: Any, where: str = "campaign save") -> tuple[Any, dict]:
        """(seed, progress) of ``to_json`` text, every field and the CRC32 checked;
        ValueError naming ``where`` and the problem. Changes nothing."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"{where} is not UTF-8 text (corrupted)") from None
        if not isinstance(text, str):
            raise ValueError(f"{where}: expected JSON text, got {type(text).__name__}")
        if len(text) > MAX_SAVE_BYTES:
            raise ValueError(f"{where} is too large ({len(text)} bytes) to be a campaign save")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where} is not valid JSON (corrupted or truncated): {e}") from None
        except RecursionError:
            raise ValueError(f"{where} is nested too deeply to be a campaign save") from None
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise ValueError(
                f"{where} is not a modlights campaign save (format {SAVE_FORMAT!r} missing)"
            )
        if doc.get("version") != SAVE_VERSION:
            raise ValueError(
                f"{where} has version {doc.get('version')!r}; this modlights "
                f"reads version {SAVE_VERSION}"
            )
        seed = doc.get("seed")
        if not isinstance(seed, (str, int)) or isinstance(seed, bool):
            raise ValueError(f"{where}: seed must be a str or int")
        prog = doc.get("progress")
        if not isinstance(prog, dict):
            raise ValueError(f"{where}: progress must be an object")
        out = {}
        for key, v in prog.items():
            if not isinstance(key, str) or not _ID_RE.fullmatch(key):
                raise ValueError(f"{where}: unknown level id {key!r} (ids are 'row-col-level')")
            if not isinstance(v, dict) or set(v) != {"taps", "stars"}:
                raise ValueError(f"{where}: level {key} must have exactly 'taps' and 'stars'")
            taps, stars = v["taps"], v["stars"]
            if isinstance(taps, bool) or not isinstance(taps, int) or not 0 < taps < 10**6:
                raise ValueError(f"{where}: level {key} has a bad tap count {taps!r}")
            if isinstance(stars, bool) or not isinstance(stars, int) or not 0 <= stars <= 3:
                raise ValueError(f"{where}: level {key} has stars {stars!r} (0..3 allowed)")
            out[key] = {"taps": taps, "stars": stars}
        body = json.dumps(
            {"seed": seed, "progress": {k: out[k] for k in sorted(out)}},
            sort_keys=True,
            separators=(",", ":"),
        )
        if doc.get("crc32") != zlib.crc32(body.encode()):
            raise ValueError(f"{where}: checksum mismatch: the file was corrupted or edited")
        return seed, out

    @classmethod
    def from_json(cls, text: Any) -> Campaign:
        """A campaign from ``to_json`` text; ValueError for anything else."""
        seed, prog = cls._parse(text)
        c = cls(seed)
        c._progress = prog
        return c

    # ------------------------------------------------------------------ files
    @staticmethod
    def _path(path: Any) -> str:
        """A save path as str: a str, bytes (decoded with the file-system encoding, as
        ``os.fsdecode`` does) or an ``os.PathLike`` giving either; ValueError for
        anything else, an empty path or one holding a NUL character."""
        if isinstance(path, (str, bytes)) or isinstance(path, os.PathLike):
            try:
                path = os.fsdecode(path)
            except (TypeError, UnicodeError) as e:  # a broken __fspath__
                raise ValueError(f"campaign save path: {e}") from None
        else:
            raise ValueError(
                "campaign save path must be a str, bytes or os.PathLike "
                f"(e.g. pathlib.Path), got {type(path).__name__}"
            )
        if not path:
            raise ValueError("campaign save path is empty")
        if "\0" in path:
            raise ValueError("campaign save path holds a NUL character")
        return path

    def save(self, path: str | os.PathLike) -> None:
        """Write the progress atomically; the previous file is kept as PATH.bak.

        path: str, bytes or os.PathLike. ValueError for another type, or when the
        file cannot be written (naming the reason); nothing is changed then."""
        path = self._path(path)
        text = self.to_json()
        d = os.path.dirname(os.path.abspath(path))
        try:
            fd, tmp = tempfile.mkstemp(prefix=".campaign-", suffix=".tmp", dir=d)
        except OSError as e:
            raise ValueError(f"cannot write campaign save {path}: {e.strerror or e}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            if os.path.exists(path):
                try:  # keep the previous save only when it is itself valid
                    with open(path, encoding="utf-8") as f:
                        self._parse(f.read())
                    os.replace(path, path + ".bak")
                except (ValueError, OSError, UnicodeDecodeError):
                    pass
            os.replace(tmp, path)
        except OSError as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise ValueError(f"cannot write campaign save {path}: {e.strerror or e}") from None
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    @staticmethod
    def _read(path: str) -> bytes:
        # at most MAX_SAVE_BYTES + 1 bytes are read: devices and pipes (whose size
        # reads 0) cannot make it read without end
        return read_limited(path, MAX_SAVE_BYTES, "campaign save")

    @classmethod
    def load(cls, path: str | os.PathLike) -> Campaign:
        """A campaign from a save file; ValueError (naming the problem and any backup)
        for a corrupted or unreadable file, and for a path that is not a str, bytes or
        os.PathLike. Nothing is changed on disk."""
        path = cls._path(path)
        try:
            seed, prog = cls._parse(cls._read(path), f"campaign save {path}")
        except ValueError as e:
            if os.path.exists(path + ".bak"):
                raise ValueError(f"{e} (the previous save is in {path}.bak)") from None
            raise
        c = cls(seed)
        c._progress = prog
        return c

    def load_progress(self, path: str | os.PathLike) -> None:
        """Replace this campaign's progress with a save file's; on any error the
        current progress is kept unchanged. path: as :meth:`load`."""
        path = self._path(path)
        seed, prog = self._parse(self._read(path), f"campaign save {path}")
        if seed != self.seed:
            raise ValueError(f"that save belongs to campaign seed {seed!r}, not {self.seed!r}")
        self._progress = prog

    def __repr__(self) -> str:
        return (
            f"Campaign(seed={self.seed!r}, stars={self.total_stars}, "
            f"open={len(self._open_set())} groups)"
        )
