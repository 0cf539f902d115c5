#!/usr/bin/env python3
"""The pixie package as a conformance testee (SPEC §6), on stdin/stdout:

    conformance run -- python3 examples/python/pixie_testee.py

It advertises only the formats whose every vector passes (pixie.FORMATS).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pixie import FORMATS  # noqa: E402
from pixie.runner import Testee  # noqa: E402

if __name__ == "__main__":
    sys.exit(Testee(FORMATS).main())
