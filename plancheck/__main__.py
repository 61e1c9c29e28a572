"""``python -m plancheck`` runs the command line."""

import sys

from plancheck.cli import main

sys.exit(main())
