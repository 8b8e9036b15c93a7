"""Files for the front ends (command line and web): :mod:`.pictures` checks that SVG /
PNG pictures of a board can be made before the work and writes them after it."""
