#!/usr/bin/env python3
"""Unit tests of the mutation tooling's own logic (issue 25): the case map's selection, which
must never leave out a case that runs a changed line, and the diff applier of --recheck.

    python3 examples/python/pixie/mutation/test_mutation_tools.py
"""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adequacy  # noqa: E402
import casemap  # noqa: E402


class Selection(unittest.TestCase):
    """casemap.selection over a small map of two modules, written here by hand."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="casemap-test-")
        self.pristine = os.path.join(self.dir, "pristine")
        self.mutated = os.path.join(self.dir, "mutated")
        os.makedirs(self.pristine)
        for m in casemap.SHARED:
            with open(os.path.join(self.pristine, m), "w") as f:
                f.write("# %s\n" % m)
        # cbor.py: line 2 at import, 3 a statement run by cases a and c, 4 its continuation,
        # 5 run by no case, 6 run by b and by selftest.
        with open(os.path.join(self.pristine, "cbor.py"), "w") as f:
            f.write("X = 1\ndef f(n):\n    y = (n +\n         1)\n    z = 0\n    return y\n")
        shutil.copytree(self.pristine, self.mutated)
        entry = lambda every=False, selftest=False, cases=0: {"every": every, "selftest": selftest, "cases": "%x" % cases}
        modules = {m: {"statements": [1], "run": {"1": entry(every=True)}} for m in casemap.SHARED}
        modules["cbor.py"] = {"statements": [1, 2, 3, 5, 6],
                              "run": {"1": entry(every=True), "2": entry(every=True), "3": entry(cases=0b101),
                                      "6": entry(selftest=True, cases=0b010)}}
        modules["runner.py"] = {"statements": [1, 2], "run": {"1": entry(every=True), "2": entry(cases=0b001)}}
        self.map = {"package": casemap.package_digest(self.pristine), "vectors": "-", "cases": ["a", "b", "c"],
                    "modules": modules}

    def tearDown(self):
        shutil.rmtree(self.dir)

    def mutate(self, module, row, text):
        path = os.path.join(self.mutated, module)
        with open(path) as f:
            lines = f.read().split("\n")
        lines[row - 1] = text
        with open(path, "w") as f:
            f.write("\n".join(lines))

    def test_unchanged_package_selects_every_case(self):
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (True, True, []))

    def test_statement_selects_the_cases_that_run_it(self):
        self.mutate("cbor.py", 3, "    y = (n -")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, False, ["a", "c"]))

    def test_continuation_line_is_looked_up_through_its_statement(self):
        self.mutate("cbor.py", 4, "         2)")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, False, ["a", "c"]))

    def test_line_run_at_import_selects_every_case(self):
        self.mutate("cbor.py", 1, "X = 2")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (True, True, []))

    def test_line_no_case_runs_selects_nothing(self):
        self.mutate("cbor.py", 5, "    z = 1")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, False, []))

    def test_selftest_runs_when_selftest_ran_the_line(self):
        self.mutate("cbor.py", 6, "    return -y")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, True, ["b"]))

    def test_runner_mutants_are_always_judged_by_selftest_too(self):
        with open(os.path.join(self.mutated, "runner.py"), "a") as f:
            f.write("x = 0\n")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated)[1], True)

    def test_map_of_other_modules_is_refused(self):
        with open(os.path.join(self.pristine, "errors.py"), "a") as f:
            f.write("# changed\n")
        with self.assertRaises(SystemExit):
            casemap.selection(self.map, self.pristine, self.mutated)


class ApplyDiff(unittest.TestCase):
    def test_hunk_with_context_past_the_last_line(self):
        # cosmic-ray's diff of a module's last line carries one empty context line past the end.
        d = tempfile.mkdtemp(prefix="applydiff-test-")
        try:
            os.makedirs(os.path.join(d, "pixie"))
            with open(os.path.join(d, "pixie", "m.py"), "w") as f:
                f.write("a = 1\n\ndef f(n):\n    return n <= 2\n")
            diff = ("--- mutation diff ---\n--- a/pixie/m.py\n+++ b/pixie/m.py\n@@ -2,4 +2,4 @@\n \n def f(n):\n"
                    "-    return n <= 2\n+    return n < 2\n \n")
            self.assertTrue(adequacy.apply_diff(d, diff))
            with open(os.path.join(d, "pixie", "m.py")) as f:
                self.assertEqual(f.read(), "a = 1\n\ndef f(n):\n    return n < 2\n")
            self.assertFalse(adequacy.apply_diff(d, diff), "the old line is gone, so the diff no longer applies")
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()
