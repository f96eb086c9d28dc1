"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'
"""

from ._core import __version__
from .rouge import RougeResult, rouge

__all__ = ["__version__", "rouge", "RougeResult"]
