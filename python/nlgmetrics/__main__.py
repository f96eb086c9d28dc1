"""``python -m nlgmetrics`` is the ``nlgmetrics`` command."""

import sys

from .cli import main

sys.exit(main())
