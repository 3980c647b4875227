"""``python -m mplp_models``: the ``mplp-models`` command."""

import sys

from mplp_models._cli.main import main

if __name__ == "__main__":
    sys.exit(main())
