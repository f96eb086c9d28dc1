"""Workflows built on the metrics: the COCO caption suite and pairwise (MBR) matrices."""
