"""Engines: one module per engine, each answering solve, generators, det, inverse, pinv."""
