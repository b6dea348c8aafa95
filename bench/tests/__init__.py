"""Tests of the lab: the benchmarks themselves run end to end, small."""
