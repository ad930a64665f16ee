"""``python -m tavolo.cli``."""

import sys

from tavolo.cli.main import main

sys.exit(main())
