"""Searches over solution sets: minimal solutions (coset walks, executors) and hardest boards."""
