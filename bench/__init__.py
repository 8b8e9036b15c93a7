"""modlights benchmarks: one runner (``python -m bench``) over a registry of workloads.

See bench/README.md for how to run a workload, add one and read the results.
"""
