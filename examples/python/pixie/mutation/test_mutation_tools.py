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
        # cbor.py: line 1 at import, 3 a statement run by cases a and c, 4 its continuation,
        # 5 run by no case, 6 run by b and by the check selftest/crlf. runner.py: line 2 run by
        # case a and selftest/no-id, line 3 by nothing.
        with open(os.path.join(self.pristine, "cbor.py"), "w") as f:
            f.write("X = 1\ndef f(n):\n    y = (n +\n         1)\n    z = 0\n    return y\n")
        with open(os.path.join(self.pristine, "runner.py"), "w") as f:
            f.write("x = 0\ny = 0\nz = 0\n")
        shutil.copytree(self.pristine, self.mutated)
        entry = lambda every=False, checks=(), cases=0: {"every": every, "checks": list(checks), "cases": "%x" % cases}
        modules = {m: {"statements": [1], "run": {"1": entry(every=True)}} for m in casemap.SHARED}
        modules["cbor.py"] = {"statements": [1, 2, 3, 5, 6],
                              "run": {"1": entry(every=True), "2": entry(every=True), "3": entry(cases=0b101),
                                      "6": entry(checks=["selftest/crlf"], cases=0b010)}}
        modules["runner.py"] = {"statements": [1, 2, 3], "run": {"1": entry(every=True),
                                                                 "2": entry(checks=["selftest/no-id"], cases=0b001)}}
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
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (True, ["*"], []))

    def test_statement_selects_the_cases_that_run_it(self):
        self.mutate("cbor.py", 3, "    y = (n -")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, [], ["a", "c"]))

    def test_continuation_line_is_looked_up_through_its_statement(self):
        self.mutate("cbor.py", 4, "         2)")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, [], ["a", "c"]))

    def test_line_run_at_import_selects_every_case(self):
        self.mutate("cbor.py", 1, "X = 2")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (True, ["*"], []))

    def test_line_no_case_runs_selects_nothing(self):
        self.mutate("cbor.py", 5, "    z = 1")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, [], []))

    def test_the_checks_that_ran_the_line_run(self):
        self.mutate("cbor.py", 6, "    return -y")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, ["selftest/crlf"], ["b"]))
        self.mutate("runner.py", 2, "y = 1")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated),
                         (False, ["selftest/crlf", "selftest/no-id"], ["a", "b"]))

    def test_runner_line_nothing_ran_gets_all_of_selftest(self):
        self.mutate("runner.py", 3, "z = 1")
        self.assertEqual(casemap.selection(self.map, self.pristine, self.mutated), (False, ["*"], []))

    def test_map_of_other_modules_is_refused(self):
        with open(os.path.join(self.pristine, "errors.py"), "a") as f:
            f.write("# changed\n")
        with self.assertRaises(SystemExit):
            casemap.selection(self.map, self.pristine, self.mutated)


class Targets(unittest.TestCase):
    def test_default_targets_mutate_every_module_once(self):
        modules = [m for t in adequacy.DEFAULT_TARGETS for m in adequacy.TARGETS[t][0]]
        self.assertEqual(len(modules), len(set(modules)))
        every = {m for t in adequacy.TARGETS.values() for m in t[0]}
        self.assertEqual(set(modules), every)

    def test_each_shared_module_is_a_target_of_its_own(self):
        for m in adequacy.SHARED:
            self.assertEqual(adequacy.TARGETS["shared-" + m[:-3]], ([m], "run:all"))

    def test_modules_the_services_import_are_judged_by_their_scenarios_too(self):
        def judge(target, case_map=None):
            return adequacy.judge_script(target, "C", "V", "py", case_map)
        for target in ["shared", "shared-jsontext", "shared-http_body"]:
            for case_map in [None, "map.json"]:
                script = judge(target, case_map)
                self.assertIn("C http --vectors V --format pairing", script)
                self.assertIn("C http --vectors V --format revocation", script)
                # The stdin/stdout judge first: a mutant it kills costs no HTTP run.
                self.assertLess(script.index(" run " if case_map is None else "casemap.py judge"), script.index(" http "))
        for target in ["shared-cbor", "shared-runner", "sync_offer"]:
            self.assertNotIn(" http ", judge(target, "map.json"))

    def test_kept_database_names_its_target_dash_and_all(self):
        self.assertEqual(adequacy.target_of("/keep/shared-cbor.sqlite"), "shared-cbor")
        self.assertEqual(adequacy.target_of("sync_offer.sqlite"), "sync_offer")
        with self.assertRaises(SystemExit):
            adequacy.target_of("/keep/shared-cbor-run1.sqlite")


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
