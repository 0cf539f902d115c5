/// Which SPEC.md §10 rules (and §2.2 rules) each `device_list` case pins (SPEC.md §2.3), and the
/// last checks every case goes through before the file is written.
extension DeviceListVectors {
    /// Case id (after `device_list/`) → rule ids. A case whose input breaks two rules at once to
    /// pin which error wins is listed in `twoFaults` too.
    static let rules: [String: [String]] = [:]
    static let twoFaults: Set<String> = []

    /// Adds the `rule:` and `two-faults` flags, then runs every case through the handler as the
    /// runner would: a case whose expectation the reference does not meet, a table entry naming
    /// no case, or a case of this file without a rule stops generation.
    static func finish(_ b: inout Builder) throws {
        var unused = Set(rules.keys)
        for i in b.cases.indices {
            let key = String(b.cases[i].id.dropFirst("device_list/".count))
            if let r = rules[key] {
                unused.remove(key)
                b.cases[i].flags += r.map { "rule:R\($0)" }
            }
            if twoFaults.contains(key) { b.cases[i].flags.append("two-faults") }
            try check(MutantMatrix.passes(b.cases[i], handler: DeviceListHandler()), "\(b.cases[i].id): the reference does not answer as the case expects")
        }
        try check(unused.isEmpty, "rule table names no case: \(unused.sorted())")
    }
}
