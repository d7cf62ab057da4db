"""`python -m mincards ...`: the `mincards` command."""

import sys

from mincards.bot.cli import main

sys.exit(main())
