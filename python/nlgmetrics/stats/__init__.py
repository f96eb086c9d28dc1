"""Statistics over segment statistics rows: bootstrap confidence intervals and paired significance tests."""

from nlgmetrics.stats.significance import confidence_interval, paired_test, score_table

__all__ = ["confidence_interval", "paired_test", "score_table"]
