import Primitives
import Vectors

/// Rows with two faults placed so that the order checks are made in shows (SPEC §4.3: a member the
/// schema does not define is refused before any value is read, then the schema's fields in table
/// order, whatever order the JSON lists them in). Targets the
/// readers that walk the JSON object as it comes (one pass in member order, unknown members met
/// along the way, missing fields noticed at the end), which answer with the other fault's code.
enum RowFaults {
    enum Fault: CaseIterable {
        /// A member the schema does not define (`input_unknown_field`).
        case unknown
        /// A required field left out (`input_missing_field`).
        case missing
        /// A value of another JSON type (`input_bad_type`).
        case badType
        /// Hex that is not hex (`input_bad_value`).
        case badValue
        /// Hex of the wrong length for a fixed-length field (`input_bad_length`).
        case badLength
    }

    /// Whether field `f` can carry fault `x`.
    static func fits(_ x: Fault, _ f: FieldSpec) -> Bool {
        switch (x, f.kind) {
        case (.missing, _): return f.isRequired
        case (.badType, _): return true
        case (.badValue, .bytes), (.badValue, .normalizedHash): return true
        case (.badLength, .bytes(let n)): return n != nil
        case (.badLength, .normalizedHash): return true
        default: return false
        }
    }

    /// A value of field `f` breaking it with fault `x` (nil: leave the field out).
    static func value(_ x: Fault, _ f: FieldSpec) -> JSONValue? {
        switch x {
        case .unknown, .missing: return nil
        case .badValue: return .str("zz")
        case .badLength: return .hex([1, 2, 3])
        case .badType:
            switch f.kind {
            case .bytes, .normalizedHash, .text, .noteBody: return .number("1")
            case .uint, .int, .date: return .bool(true)
            case .bool: return .str("true")
            case .textSet, .reactionSet: return .str("x")
            case .versionVector: return .array([])
            }
        }
    }

    /// `row` with one integer field (uint, int, date) spelled as SPEC §2.2 refuses: an integral
    /// float (`5.0`, `5e0`) or a lenient decimal string (`"+5"`, `"05"`, `" 5"`). Targets readers
    /// that parse numbers through a double or integers with `Int(String)`-style parsers. Nil when
    /// the row has no integer field.
    static func integerSpelling(_ row: JSONValue, _ ns: Namespace, _ rng: inout FuzzRNG) -> JSONValue? {
        let ints = LeafSchema.schema(for: ns).fields.filter {
            switch $0.kind {
            case .uint, .int, .date: return true
            default: return false
            }
        }
        guard !ints.isEmpty else { return nil }
        let f = rng.pick(ints)
        let d = String(rng.pick([0, 1, 5, 1000, 1_767_225_600_000]))
        let v: JSONValue = rng.pick([.number(d + ".0"), .number(d + "e0"), .number(d + "E0"), .str("+" + d), .str("0" + d), .str(" " + d)])
        return row.setting(f.name, v)
    }

    /// `row` with the one fault `x` on a field that can carry it (an unknown member added when
    /// none can).
    static func oneFault(_ row: JSONValue, _ ns: Namespace, _ x: Fault, _ rng: inout FuzzRNG) -> JSONValue {
        let candidates = LeafSchema.schema(for: ns).fields.filter { fits(x, $0) }
        guard x != .unknown, let f = candidates.isEmpty ? nil : rng.pick(candidates), case .object(var m) = row else {
            return row.setting("x_fuzz", .number("1"))
        }
        m.removeAll { $0.0 == f.name }
        if let v = value(x, f) { m.insert((f.name, v), at: rng.below(m.count + 1)) }
        return .object(m)
    }

    /// `row` (an object of namespace `ns`) with two faults of different codes: the one a strict
    /// reader reports (an unknown member, or the field earlier in the schema) listed after the
    /// other in the JSON text. Nil when the schema has no such pair.
    static func twoFaults(_ row: JSONValue, _ ns: Namespace, _ rng: inout FuzzRNG) -> JSONValue? {
        guard case .object(var m) = row else { return nil }
        let fields = LeafSchema.schema(for: ns).fields
        let first = rng.pick(Fault.allCases)
        let second = rng.pick([Fault.badType, .badValue, .badLength].filter { $0 != first })
        // The field of the first fault (none for an unknown member), then a later field for the second.
        var firstIndex = -1
        if first != .unknown {
            let candidates = fields.indices.filter { fits(first, fields[$0]) && $0 < fields.count - 1 }
            guard !candidates.isEmpty else { return nil }
            firstIndex = rng.pick(candidates)
        }
        let later = fields.indices.filter { $0 > firstIndex && fits(second, fields[$0]) }
        guard !later.isEmpty else { return nil }
        let secondField = fields[rng.pick(later)]
        // Every schema field present (so no third fault), then the two faults.
        for f in fields where !m.contains(where: { $0.0 == f.name }) && f.isRequired {
            m.append((f.name, StateDigestFuzzGenerator.value(f.kind, &rng)))
        }
        m.removeAll { $0.0 == secondField.name }
        let secondMember = (secondField.name, value(second, secondField)!)
        switch first {
        case .unknown:
            m.insert(("x_fuzz", .number("1")), at: rng.below(m.count + 1))
        case .missing:
            m.removeAll { $0.0 == fields[firstIndex].name }
        default:
            let f = fields[firstIndex]
            m.removeAll { $0.0 == f.name }
            m.insert((f.name, value(first, f)!), at: rng.below(m.count + 1))
        }
        // Mostly the later field's fault first in the text; now and then anywhere.
        if rng.oneIn(4) { return .object(rng.shuffled(m + [secondMember])) }
        return .object([secondMember] + m)
    }
}
