"""``python -m bleu_core`` is ``bleu-explorer``."""

import sys

from .cli import main

sys.exit(main())
