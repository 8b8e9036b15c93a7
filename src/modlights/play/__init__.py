"""Playing: puzzles (generate, daily, codes, stars), the interactive Game, the
Campaign, and the portable PRNG they share. Public names are re-exported by
:mod:`modlights`."""
