"""The tensor engine: boards whose tap matrix is a sum of Kronecker products of banded
factors, solved factor by factor over fields and over Z/p^k parts of rings."""
