import Vectors

/// Extra explanation for a wrong `state_digest` output: which leaf field, or which row, drifted.
enum StateDigestDiagnosis {
    /// Rows probed per namespace at most: enough to find the first drift, bounded for big cases.
    static let maxProbedRows = 256

    static func explain(_ c: SuiteCase, expected: JSONValue, actual: JSONValue, probe: Judge.Probe?) -> [String] {
        switch c.op {
        case "leaf":
            return leaf(c.input["namespace"]?.stringValue ?? "", expected: expected, actual: actual)
        case "root":
            guard let ns = c.input["namespace"]?.stringValue, let rows = c.input["rows"]?.arrayValue else { return [] }
            return rowsDiagnosis(caseID: c.id, idPrefix: "\(c.id)#leaf", namespace: ns, rows: rows, probe: probe)
        case "digest":
            guard let nss = c.input["namespaces"]?.objectValue else { return [] }
            var out: [String] = []
            for (ns, rows) in nss {
                let path = ["roots", ns]
                guard value(expected, path) != value(actual, path), let list = rows.arrayValue else { continue }
                out.append("namespace \(ns): root differs")
                out += rowsDiagnosis(caseID: c.id, idPrefix: "\(c.id)#leaf/\(ns)", namespace: ns, rows: list, probe: probe)
                    .map { "  " + $0 }
            }
            return out
        default:
            return []
        }
    }

    static func value(_ v: JSONValue, _ path: [String]) -> JSONValue? {
        path.reduce(Optional(v)) { $0?[$1] }
    }

    static func leaf(_ ns: String, expected: JSONValue, actual: JSONValue) -> [String] {
        guard let ep = expected["preimage"]?.stringValue, let ap = actual["preimage"]?.stringValue else { return [] }
        if let d = LeafDiagnosis.firstDifference(namespace: ns, expected: ep, actual: ap.lowercased() == ep ? ep : ap) {
            return [d]
        }
        if expected["leaf"] != actual["leaf"] {
            return ["the preimage matches; the leaf hash does not: leaf = SHA-256(\"pixie.state.\(ns)\" || 0x00 || preimage)"]
        }
        return []
    }

    /// Asks the testee for each row's leaf and names the first row whose leaf differs from the
    /// reference's, and its first differing field.
    static func rowsDiagnosis(caseID: String, idPrefix: String, namespace ns: String, rows: [JSONValue], probe: Judge.Probe?) -> [String] {
        guard ns != "settings" else {
            return ["settings has no leaves: its root hashes the CBOR map {key: value} of the live (non-tombstoned) keys"]
        }
        guard let probe, let reference = Reference.handler(for: "state_digest") else { return [] }
        for (i, row) in rows.prefix(maxProbedRows).enumerated() {
            let input = JSONValue.object([("namespace", .string(ns)), ("row", row)])
            let want: JSONValue
            do { want = try reference.run(op: "leaf", input: input) } catch { continue }
            guard let answer = probe("\(idPrefix)/\(i)", "leaf", input) else {
                return ["(row leaves not compared: the testee does not support state_digest/leaf)"]
            }
            switch answer {
            case .result(let r):
                switch r.status {
                case .ok(let got):
                    guard !JSONComparison.equal(want, got) else { continue }
                    var out = ["row \(i) is the first whose leaf differs (diagnostic case \(idPrefix)/\(i))"]
                    let fields = leaf(ns, expected: want, actual: got)
                    out += fields.isEmpty ? JSONComparison.differences(expected: want, actual: got, path: "leaf").map(\.description) : fields
                    return out
                case .rejected(let code, _):
                    return ["row \(i): the testee rejects it on its own (leaf op) with \(code); the reference accepts it"]
                case .unsupported, .error:
                    return ["(row leaves not compared: the testee did not answer the diagnostic leaf case)"]
                }
            case .crash, .timeout, .protocolError:
                return ["(row leaves not compared: the testee failed on diagnostic case \(idPrefix)/\(i): \(answer))"]
            }
        }
        return ["every row's leaf matches the reference: the drift is in the drop rule, the key sort or the fold (SPEC.md §4.5, §4.7)"]
    }
}
