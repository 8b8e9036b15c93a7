"""The model: boards (geometry, states, the tap matrix), patterns, input validation,
modular arithmetic, and a board's own dict and picture forms. Imports nothing else
of modlights."""
