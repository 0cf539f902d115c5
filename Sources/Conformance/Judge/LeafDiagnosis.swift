import Primitives
import Vectors

/// Names the first leaf field on which two preimages disagree.
///
/// A preimage is a CBOR array of the namespace's committed fields in schema order; an optional
/// committed field is a presence marker 0, or a marker 1 followed by the value (SPEC.md
/// §4.3). Walking both arrays with the schema turns "the leaf differs" into
/// "sentAt: expected 1767225600, got 1767225600123".
public enum LeafDiagnosis {
    enum Slot: Equatable {
        case absent
        case value(CBOR)
        /// The array ended before this field.
        case missing
        /// A presence marker other than 0 or 1.
        case badMarker(CBOR)

        var text: String {
            switch self {
            case .absent: return "absent (marker 0)"
            case .value(let v): return CBORDiagnostic.render(v)
            case .missing: return "nothing (the array ends here)"
            case .badMarker(let m): return "presence marker \(CBORDiagnostic.render(m)) (must be 0 or 1)"
            }
        }
    }

    /// A sentence naming the first differing field, or what else differs; nil when both
    /// preimages are the same bytes.
    public static func firstDifference(namespace: String, expected: String, actual: String) -> String? {
        guard let ns = Namespace(rawValue: namespace) else { return nil }
        guard let eb = Hex.decode(expected) else { return nil }
        guard let ab = Hex.decode(actual) else { return "the testee's preimage is not hex" }
        if eb == ab { return nil }
        guard case .array(let e)? = try? CBORReader.decode(eb, maxDepth: 64) else { return nil }
        let a: [CBOR]
        do {
            guard case .array(let items) = try CBORReader.decode(ab, maxDepth: 64) else {
                return "the testee's preimage is not a CBOR array (a preimage is the array of committed fields)"
            }
            a = items
        } catch {
            return "the testee's preimage is not deterministic CBOR: \(error)"
        }
        var i = 0, j = 0
        var last = "(start)"
        for f in LeafSchema.schema(for: ns).committed {
            let x = slot(e, &i, f), y = slot(a, &j, f)
            if x != y { return "first differing leaf field: \(f.name) (expected \(x.text), got \(y.text))" }
            last = f.name
        }
        if a.count > j {
            return "the testee's preimage has \(a.count - j) element(s) after the last committed field (\(last)); excluded fields must not be hashed"
        }
        return "the preimages hold the same fields but differ in encoding"
    }

    static func slot(_ items: [CBOR], _ k: inout Int, _ f: FieldSpec) -> Slot {
        guard k < items.count else { return .missing }
        guard f.optional else { k += 1; return .value(items[k - 1]) }
        switch items[k] {
        case .unsigned(0): k += 1; return .absent
        case .unsigned(1):
            k += 1
            guard k < items.count else { return .missing }
            k += 1
            return .value(items[k - 1])
        default:
            k += 1
            return .badMarker(items[k - 1])
        }
    }
}
