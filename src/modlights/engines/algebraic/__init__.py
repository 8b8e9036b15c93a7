"""The polynomial engines: boards whose tap matrix is a polynomial in a shift (the cross
via Chebyshev-like recurrences, symmetric 3 x 3 stencils, tori), and the lifted engine
for prime powers."""
