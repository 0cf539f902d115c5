import Vectors

/// Says what moved in a changed case: for a state_digest leaf, the namespace and the first field
/// whose encoding changed (from the two preimages); otherwise the output members that differ.
public enum DriftExplainer {
    @Sendable
    public static func explain(format: String, baseline: JSONValue, current: JSONValue) -> String? {
        let old = baseline["expected"]?["output"], new = current["expected"]?["output"]
        if format == "state_digest", let ns = current["input"]?["namespace"]?.stringValue,
           let a = old?["preimage"]?.stringValue, let b = new?["preimage"]?.stringValue,
           let why = LeafDiagnosis.firstDifference(namespace: ns, expected: a, actual: b) {
            return "namespace \(ns): " + why.replacingOccurrences(of: "expected", with: "was").replacingOccurrences(of: "got", with: "now")
        }
        guard case .object(let o)? = old, case .object(let n)? = new else {
            return baseline["expected"]?["error"] != current["expected"]?["error"] ? "expected error changed" : nil
        }
        let keys = Set(o.map(\.0)).union(n.map(\.0)).sorted()
        let moved = keys.filter { k in o.first { $0.0 == k }?.1 != n.first { $0.0 == k }?.1 }
        if format == "state_digest", let ns = current["input"]?["namespace"]?.stringValue, !moved.isEmpty {
            return "namespace \(ns): output \(moved.joined(separator: ", ")) changed"
        }
        return moved.isEmpty ? nil : "output \(moved.joined(separator: ", ")) changed"
    }
}
