"""``python -m bleu_cli`` is ``bleu-explorer``."""

import sys

from .cli import main

sys.exit(main())
