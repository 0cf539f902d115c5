import Conformance
import Foundation
import Vectors

/// `conformance rules` and `conformance coverage` (SPEC.md §2.3): the rule index read from
/// SPEC.md's tags, and which cases pin each rule.
enum RulesCommand {
    static let rulesHelp = """
    OVERVIEW: List every rule SPEC.md states ([R<section>-<n>] tags), with its section and text.

    USAGE: conformance rules [--spec FILE] [--section S] [--json]

    OPTIONS:
      --spec FILE     SPEC.md to read (default: SPEC.md in the current directory).
      --section S     Only rules of section S and its subsections (e.g. 4 or 5.3).
      --json          One JSON document: {"rules": [{id, section, line, text, order, facets}],
                      "withdrawn": [{id, reason}]}; a facet is {kind: "limit", id, format,
                      quantity, bound, side, inclusive, refuses | changes} or {kind: "order",
                      id, format, checks: [{name, outcome}]}. Members may be added (inputs).

    EXIT CODES: 0 listed, 1 the tags themselves are wrong (duplicate, misplaced, withdrawn), 2 usage error.
    """

    static let coverageHelp = """
    OVERVIEW: For each rule of SPEC.md, the vector cases (and self-test checks) that pin it.
              Fails when a rule is pinned by nothing, when an order rule has no case flagged
              two-faults, or when a case names a rule SPEC.md does not state. Then the facet
              axes, per format: every limit's below / at / above edge and every stated order's
              adjacent pairs and first-against-last need a case flagged facet:<entry> or an
              exemption with its reason (coverage/limits-exempt.tsv, coverage/orders-exempt.tsv).
              Then the axis "input members × battery": every op-input member the reference reads gets every
              §2.2 spelling of its type (InputBattery), save the exemptions in
              coverage/inputs-exempt.tsv, and every pair of neighbouring required members
              (and the first against the last) both two-fault cases of R2.2-7 (InputOrderCases),
              and for the ops where SPEC says every member is read before any rule, each rule
              code with a member mistyped as well (InputBeforeRulesCases). Last, the audit of
              the hand-written two-fault cases (TwoFaultAudit): each holds two faults, each
              refused alone, the earlier deciding; coverage/two-faults-pending.tsv lists the
              ones it cannot confirm yet (reported as pending).

    USAGE: conformance coverage [--spec FILE] [--vectors DIR] [--exemptions DIR] [--section S] [--verbose]

    OPTIONS:
      --spec FILE     SPEC.md to read (default: SPEC.md in the current directory).
      --vectors DIR   Vector files to read (default: vectors/).
      --section S     Report only rules of section S and its subsections (the gate still
                      checks every rule).
      --exemptions DIR  The facet axes' exemption files, inputs-exempt.tsv among them
                        (default: coverage/).
      --verbose       List every pinning case, not the first three, and every facet entry.

    EXIT CODES: 0 every rule pinned, 1 a gap (each printed), 2 usage error.
    """

    struct Options {
        var spec = URL(fileURLWithPath: "SPEC.md")
        var section: String?
        var verbose = false
        var json = false
        var exemptions = URL(fileURLWithPath: "coverage")
    }

    struct UsageError: Error { var message: String }

    static func parse(_ argv: inout [String]) throws(UsageError) -> Options {
        var o = Options()
        func value(_ name: String) throws(UsageError) -> String? {
            guard let i = argv.firstIndex(of: name) else { return nil }
            guard i + 1 < argv.count else { throw UsageError(message: "\(name) needs a value") }
            let v = argv[i + 1]
            argv.removeSubrange(i...(i + 1))
            return v
        }
        if let v = try value("--spec") { o.spec = URL(fileURLWithPath: v) }
        o.section = try value("--section")
        if let v = try value("--exemptions") { o.exemptions = URL(fileURLWithPath: v) }
        if let i = argv.firstIndex(of: "--json") { o.json = true; argv.remove(at: i) }
        if let i = argv.firstIndex(of: "--verbose") { o.verbose = true; argv.remove(at: i) }
        return o
    }

    static func inSection(_ rule: Rule, _ section: String?) -> Bool {
        guard let section else { return true }
        return rule.section == section || rule.section.hasPrefix(section + ".")
    }

    static func rules(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(rulesHelp); return 0 }
        let options: Options
        do { options = try parse(&args) } catch { return CLI.fail(error.message) }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        let index: RuleIndex
        do { index = try RuleIndex.load(specAt: options.spec) } catch {
            return CLI.fail("cannot read \(options.spec.path): \(error.localizedDescription)")
        }
        let shown = index.rules.filter { inSection($0, options.section) }
        if options.json {
            print(RuleJSON.document(shown, withdrawn: index.withdrawn).pretty)
            for p in index.problems { FileHandle.standardError.write(Data("error: \(p)\n".utf8)) }
            return index.problems.isEmpty ? 0 : 1
        }
        for r in shown {
            print("\(r.id)\(r.isOrder ? " (order)" : "")\t§\(r.section)\t\(r.text)")
        }
        for w in index.withdrawn { print("\(w.id)\twithdrawn\t\(w.reason)") }
        for p in index.problems { FileHandle.standardError.write(Data("error: \(p)\n".utf8)) }
        print("\(shown.count) rules (\(shown.filter(\.isOrder).count) order rules), \(index.withdrawn.count) withdrawn")
        return index.problems.isEmpty ? 0 : 1
    }

    static func coverage(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(coverageHelp); return 0 }
        let vectors = CLI.vectorsDirectory(&args)
        let options: Options
        do { options = try parse(&args) } catch { return CLI.fail(error.message) }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        let index: RuleIndex
        do { index = try RuleIndex.load(specAt: options.spec) } catch {
            return CLI.fail("cannot read \(options.spec.path): \(error.localizedDescription)")
        }
        let cases: [SuiteCase]
        do { cases = try SuiteLoader.load(directory: vectors) } catch { return CLI.fail("\(error)") }
        let witnesses = cases.map(RuleWitness.init(case:)) + SelfTestWitnesses.all
        let coverage = Coverage(index: index, witnesses: witnesses)
        for e in coverage.entries where inSection(e.rule, options.section) {
            let list = options.verbose ? e.witnesses : Array(e.witnesses.prefix(3))
            let more = e.witnesses.count > list.count ? ", … (\(e.witnesses.count) in all)" : ""
            let mark = e.isPinned ? "pinned  " : "UNPINNED"
            let order = e.rule.isOrder ? " [order: \(e.twoFaultWitnesses.count) two-fault]" : ""
            print("\(mark) \(e.rule.id)\(order): \(list.isEmpty ? "no case" : list.joined(separator: ", ") + more)")
        }
        for p in coverage.problems { print("GAP \(p)") }
        let pinned = coverage.entries.filter(\.isPinned).count
        print("\(pinned) of \(coverage.entries.count) rules pinned, \(coverage.problems.count) gap(s)")
        let axesClean = FacetAxesReport.run(cases: cases, exemptions: options.exemptions, verbose: options.verbose)
        let inputs = inputCoverage(vectors, exemptions: options.exemptions)
        let ties = tieBreakCoverage(vectors, verbose: options.verbose)
        let audit = twoFaultAudit(vectors, exemptions: options.exemptions, verbose: options.verbose)
        let edges = edgeAudit(vectors, exemptions: options.exemptions)
        return coverage.isClean && axesClean && inputs && ties && audit && edges ? 0 : 1
    }

    /// The tie-break axis (TieBreakCoverage): a line per format with declared tie-breaks, a GAP
    /// per other reading no case tells apart, and the formats with none declared yet.
    static func tieBreakCoverage(_ vectors: URL, verbose: Bool) -> Bool {
        let files = Reference.handlers.compactMap { try? VectorFile.read(format: $0.format, in: vectors) }
        let c = TieBreakCoverage(files: files)
        for format in TieBreakCoverage.declaredFormats {
            let mine = c.entries.filter { $0.facet.format == format }
            let told = mine.filter { !$0.witnesses.isEmpty }.count
            print("\(told == mine.count ? "met     " : "UNMET   ") tie-breaks \(format): \(Set(mine.map(\.facet.id)).count) facets, \(told) of \(mine.count) other readings told apart by a case")
            if verbose { for e in mine { print("  \(e.facet.id) vs \(e.mutant.rawValue): \(e.witnesses.first ?? "no case")") } }
        }
        for p in c.problems { print("GAP tie-breaks: \(p)") }
        for f in FacetIndex.formats { if let why = f.noTieBreaks { print("none    tie-breaks \(f.format): none stated (\(why))") } }
        let stated = Set(FacetIndex.formats.filter { $0.noTieBreaks != nil }.map(\.format))
        let undeclared = Reference.handlers.map(\.format).filter { !TieBreakCoverage.declaredFormats.contains($0) && !stated.contains($0) }
        print("tie-breaks not yet declared (not measured): \(undeclared.isEmpty ? "none" : undeclared.joined(separator: ", "))")
        return c.isClean
    }

    /// The self-audit of the hand-written two-fault cases (TwoFaultAudit): a line per format, a
    /// GAP per case that does not hold two faults decided by the earlier.
    static func twoFaultAudit(_ vectors: URL, exemptions: URL, verbose: Bool) -> Bool {
        guard let (files, exempt) = filesAndList(vectors, exemptions, TwoFaultAudit.pendingFile) else { return false }
        let a = TwoFaultAudit(files: files, pending: exempt)
        for l in a.lines where l.cases > 0 {
            print("\(l.pending == 0 ? "met     " : "PENDING ") two-fault audit \(l.format): \(l.audited) of \(l.cases) hand-written two-fault cases hold two faults decided by the earlier (\(l.byModel) by their generator's fault model); \(l.pending) pending (\(TwoFaultAudit.pendingFile))")
        }
        for f in a.findings { print("GAP two-faults \(f.id): \(f.problem)") }
        for p in a.problems { print("GAP two-faults \(p)") }
        return a.isClean
    }

    /// Every format's committed vector file, and one of the `coverage/` lists (case or member →
    /// reason); nil, with a GAP printed, when the list cannot be read.
    static func filesAndList(_ vectors: URL, _ exemptions: URL, _ list: String) -> ([VectorFile], [String: String])? {
        let files = Reference.handlers.compactMap { try? VectorFile.read(format: $0.format, in: vectors) }
        do { return (files, try InputCoverage.exemptions(at: exemptions.appendingPathComponent(list))) } catch {
            print("GAP \(error)")
            return nil
        }
    }

    /// The self-audit of the hand-written edge cases (EdgeAudit): a line per format, a GAP per
    /// undecided case with no reason in edges-pending.tsv.
    static func edgeAudit(_ vectors: URL, exemptions: URL) -> Bool {
        guard let (files, pending) = filesAndList(vectors, exemptions, EdgeAudit.pendingFile) else { return false }
        let a = EdgeAudit(files: files, pending: pending)
        for l in a.lines {
            print("\(l.undecided.isEmpty ? "met     " : "PENDING ") edge audit \(l.format): \(l.audited) of \(l.cases) hand-written edge cases answer otherwise when one integer of the input moves one step; "
                  + "\(l.noInteger) hold no integer (their edge is a length or a byte: not measured here); \(l.undecided.count) pending (\(EdgeAudit.pendingFile))")
        }
        for p in a.problems { print("GAP edges \(p)") }
        return a.isClean
    }

    /// The axis "input members × battery" (InputCoverage): one line per format, a GAP per miss.
    static func inputCoverage(_ vectors: URL, exemptions: URL) -> Bool {
        guard let (files, exempt) = filesAndList(vectors, exemptions, InputCoverage.exemptionFile) else { return false }
        let c = InputCoverage(files: files, exempt: exempt)
        for l in c.lines {
            print("inputs \(l.format): \(l.members) members, \(l.covered + l.exempt) of \(l.required) (member, spelling) covered (\(l.exempt) exempt); "
                  + "\(l.orderPairs) member-order pairs, \(l.orderCovered) of \(2 * l.orderPairs) cases"
                  + (l.beforeRules == 0 ? "" : "; members before rules: \(l.beforeRulesCovered + l.beforeRulesExempt) of \(l.beforeRules) (op, code) pairs (\(l.beforeRulesExempt) exempt)"))
        }
        for p in c.problems { print("GAP input \(p)") }
        print("\(c.lines.map(\.covered).reduce(0, +) + c.lines.map(\.exempt).reduce(0, +)) of \(c.lines.map(\.required).reduce(0, +)) input (member, spelling) pairs covered, \(c.problems.count) gap(s)")
        return c.isClean
    }
}
