"""Coverage-guided fuzzing of tests/fuzz/target.py with atheris (make fuzz SECONDS=600).

libFuzzer options pass through: corpus folders, -max_total_time, -artifact_prefix.
A crash is written to tests/fuzz/regressions/ and replayed by the test suite from then on.
"""

import sys

import atheris

with atheris.instrument_imports():
    from target import check

    import mplp_models  # noqa: F401  (instrumented for coverage)

atheris.Setup(sys.argv, check)
atheris.Fuzz()
