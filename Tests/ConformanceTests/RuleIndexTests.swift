import Testing
@testable import Conformance

/// The rule index reads SPEC.md's `[R…]` tags (SPEC §2.3) and the coverage gate checks them
/// against the cases' `rule:` flags.
@Suite struct RuleIndexTests {
    static let spec = """
    # Title

    ## 4. Digest

    Intro without rules. A tag in code `[R4-9]` is an example.

    ### 4.3 Leaves

    A leaf is hashed. [R4.3-1] Dates are floored,
    not truncated. [R4.3-2]
    - Unknown field first, then missing. [R4.3-3 order]

    #### messages (no number: still 4.3)

    | a | row [R4.3-4] |

    ```
    [R4.3-99] inside a fence is not a rule
    ```

    ## 5. Reconcile

    Wrong place. [R4.3-5] Again. [R4.3-1]

    Withdrawn rule ids:
    - R5-7: merged into
      R5-8
    - R5-8: kept? no

    Back to prose. [R5-8]
    """

    @Test func readsTagsSectionsTextsAndOrder() {
        let index = RuleIndex.parse(Self.spec)
        #expect(index.rules.map(\.id) == ["R4.3-1", "R4.3-2", "R4.3-3", "R4.3-4", "R4.3-5", "R5-8"])
        #expect(index.rules.map(\.isOrder) == [false, false, true, false, false, false])
        #expect(index.rule("R4.3-1")?.text == "A leaf is hashed.")
        #expect(index.rule("R4.3-2")?.text == "Dates are floored, not truncated.")
        #expect(index.rule("R4.3-3")?.text == "- Unknown field first, then missing.")
        #expect(index.rule("R4.3-4")?.section == "4.3")
        #expect(index.rule("R4.3-1")?.line == 9)
        #expect(index.withdrawn.map(\.id) == ["R5-7", "R5-8"])
        #expect(index.withdrawn.first?.reason == "merged into R5-8")
    }

    @Test func reportsTaggingMistakes() {
        let problems = RuleIndex.parse(Self.spec).problems
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("R4.3-5 sits under section 5, not 4.3") })
        #expect(problems.contains { $0.contains("R4.3-1 is already used at line 9") })
        #expect(problems.contains { $0.contains("R5-8 is withdrawn but still tagged") })
    }

    @Test func rejectsMalformedTagBodies() {
        #expect(RuleIndex.parseTagBody("R4.3-1")?.id == "R4.3-1")
        #expect(RuleIndex.parseTagBody("R4.3-1 order")?.isOrder == true)
        #expect(RuleIndex.parseTagBody("R4.3-01") == nil)
        #expect(RuleIndex.parseTagBody("R4..3-1") == nil)
        #expect(RuleIndex.parseTagBody("r4.3-1") == nil)
        #expect(RuleIndex.parseTagBody("R4.3") == nil)
        #expect(RuleIndex.parseTagBody("R4.3-1 ordered") == nil)
    }

    @Test func coverageNamesEveryGap() {
        let index = RuleIndex.parse("""
        ## 4. X

        One. [R4-1] Two. [R4-2 order] Three. [R4-3 order] Four. [R4-4]

        Withdrawn rule ids:
        - R4-9: gone
        """)
        let witnesses = [
            RuleWitness(id: "x/a/b/c", rules: ["R4-1", "R4-2"]),
            RuleWitness(id: "x/a/b/d", rules: ["R4-3"], twoFaults: true),
            RuleWitness(id: "x/a/b/e", rules: ["R4-77", "R4-9"]),
            RuleWitness(id: "selftest/hello-first", rules: ["R4-1"]),
        ]
        let c = Coverage(index: index, witnesses: witnesses)
        #expect(c.entries.map(\.isPinned) == [true, false, true, false])
        #expect(c.entries[0].witnesses == ["x/a/b/c", "selftest/hello-first"])
        #expect(c.entries[2].twoFaultWitnesses == ["x/a/b/d"])
        #expect(c.unpinned.map(\.rule.id) == ["R4-2", "R4-4"])
        #expect(c.problems.count == 4)
        #expect(c.problems.contains { $0.hasPrefix("x/a/b/e: names rule R4-77, which SPEC.md does not state") })
        #expect(c.problems.contains { $0.hasPrefix("x/a/b/e: names withdrawn rule R4-9 (gone)") })
        #expect(c.problems.contains { $0.hasPrefix("R4-2 (§4, SPEC.md:3) states an order but no case flagged two-faults") })
        #expect(c.problems.contains { $0.hasPrefix("R4-4 (§4, SPEC.md:3) is pinned by no case") })
        #expect(!c.isClean)
    }

    @Test func witnessFromCaseFlags() {
        let sc = SuiteCase(id: "f/op/g/n", format: "f", op: "op", flags: ["negative", "rule:R2.2-3", "two-faults", "rule:R2.2-7"],
                           input: .object([]), expected: .error("input_bad_type"))
        let w = RuleWitness(case: sc)
        #expect(w.rules == ["R2.2-3", "R2.2-7"])
        #expect(w.twoFaults)
    }
}
