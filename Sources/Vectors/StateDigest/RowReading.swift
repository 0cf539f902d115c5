import Primitives

/// How row values are read from JSON (SPEC.md §4.2, §4.3, §2.2), as one value: the strict rules
/// of the spec, or the lenient defaults a stock JSON library or a hurried reader brings, which
/// the mutants switch on. Read once per row, never per field.
struct RowReading: Sendable {
    /// `1.0` and `1e0` read as integers.
    var integersFromFloats = false
    /// `"+5"`, `"007"` and `" 7"` read as integers.
    var lenientIntegerStrings = false
    /// `0` and `1` read as booleans.
    var booleansFromNumbers = false
    /// `null` read as an absent member.
    var nullAsAbsent = false
    /// Op-input hex with an uppercase digit rejected (inputs accept either case).
    var hexLowercaseOnly = false
    /// Excluded fields not read at all.
    var excludedUnchecked = false
    /// Members checked in the order the JSON lists them, not unknown-first then schema order.
    var memberOrder = false

    static let strict = RowReading()

    static var current: RowReading {
        guard let m = Mutant.active else { return .strict }
        var r = RowReading()
        switch m {
        case .integersFromFloats: r.integersFromFloats = true
        case .integersLenientStrings: r.lenientIntegerStrings = true
        case .booleansFromNumbers: r.booleansFromNumbers = true
        case .nullAsAbsent: r.nullAsAbsent = true
        case .hexLowercaseOnly: r.hexLowercaseOnly = true
        case .excludedUnchecked: r.excludedUnchecked = true
        case .rowChecksInMemberOrder: r.memberOrder = true
        default: break
        }
        return r
    }

    /// The integer text of a value, strictly (§2.2) or as the lenient mutant reads it.
    func integerText(_ v: JSONValue) -> String? {
        if let t = v.integerText { return t }
        if integersFromFloats, case .number(let n) = v, let d = Double(n), d.rounded() == d, abs(d) < 9.2e18 {
            return String(Int64(d))
        }
        if lenientIntegerStrings, case .string(let s) = v {
            let t = s.trimmingSpaces
            if let n = Int64(t) { return String(n) }
            if let n = UInt64(t) { return String(n) }
        }
        return nil
    }

    func uint64(_ v: JSONValue, path: String) throws(WireError) -> UInt64 {
        InputRecorder.note(path, .uint64, v)
        guard let t = integerText(v), let n = t == "-0" ? 0 : UInt64(t) else {
            throw WireError(.inputBadType, "expected an unsigned 64-bit integer (a JSON integer or a canonical decimal string)", field: path)
        }
        return n
    }

    func int64(_ v: JSONValue, path: String) throws(WireError) -> Int64 {
        InputRecorder.note(path, .int64, v)
        guard let t = integerText(v), let n = Int64(t) else {
            throw WireError(.inputBadType, "expected a signed 64-bit integer (a JSON integer or a canonical decimal string)", field: path)
        }
        return n
    }

    func bool(_ v: JSONValue, path: String) throws(WireError) -> Bool {
        if booleansFromNumbers, case .number(let n) = v, n == "0" || n == "1" { return n == "1" }
        return try Input.bool(v, path: path)
    }

    /// Hex of a row field. Op inputs accept either case (§2.2); inside a frame (`wire`), an
    /// uppercase digit is not hex (`input_bad_value`, SPEC §5.3 step 6).
    func bytes(_ v: JSONValue, path: String, wire: Bool) throws(WireError) -> [UInt8] {
        if case .string(let s) = v, (wire && !Mutant.on(.frameHexAnyCase)) || hexLowercaseOnly,
           s.utf8.contains(where: { (0x41...0x46).contains($0) }) {
            throw WireError(.inputBadValue, "hex inside a frame is lowercase only", field: path)
        }
        return try Input.bytes(v, path: path)
    }
}

extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
