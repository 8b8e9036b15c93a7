"""A fixture running a test on every SIMD path a binding's CPU runs."""

from __future__ import annotations

import pytest


def simd_fixture(module):
    """A pytest fixture over ``module.simd_paths()`` that sets each path with
    ``module.set_simd`` for the test and restores the one before afterwards (one setting
    for the whole extension module, whichever alias a test imports it as)."""

    @pytest.fixture(params=module.simd_paths())
    def simd(request):
        before = module.get_simd()
        module.set_simd(request.param)
        yield request.param
        module.set_simd(before)

    return simd
