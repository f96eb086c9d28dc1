"""``python -m nlgmetrics`` is the ``nlgmetrics`` command."""

import sys

from nlgmetrics.cli.commands import main

sys.exit(main())
