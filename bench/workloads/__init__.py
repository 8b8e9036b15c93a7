"""Workload modules, one per subject; each registers its workloads on import."""
