import Primitives
import Vectors

/// Differences inside a string member that holds an encoding (SPEC.md §6.5), for any format:
/// nothing here knows a format's schema, only what the expected value itself shows.
///
/// - hex that is deterministic CBOR with an array, map or tag on top: both sides decoded and
///   diffed by path with major types (a byte string inside that is such CBOR is decoded in turn);
/// - a JSON object or array as text: both sides parsed and diffed by path;
/// - a 3,373-byte value, alone or as the tail of an otherwise equal value: a hybrid signature
///   (Ed25519 64 bytes || ML-DSA-65 3,309 bytes, SPEC.md §9.3), reported by half;
/// - other long hex: the first differing byte, the count of differing bytes, both lengths.
enum EncodedDiff {
    static let signatureLength = 3373
    static let ed25519Length = 64

    /// Adds the differences between two unequal strings; false when neither is an encoding this
    /// knows (the caller then shows a plain string difference).
    static func explain(expected: String, actual: String, path: String, _ c: inout JSONComparison.Collector) -> Bool {
        if JSONComparison.isLowerHex(expected), expected.utf8.count % 2 == 0, let eb = Hex.decode(expected) {
            return hex(eb, actual: actual, path: path, &c)
        }
        if let first = expected.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           let ev = try? JSONValue.parse(expected), ev.objectValue != nil || ev.arrayValue != nil {
            guard let av = try? JSONValue.parse(actual) else {
                let why: String
                do { _ = try JSONValue.parse(actual); why = "" } catch { why = error.description }
                c.add("\(path) (JSON)", "expected JSON text, the testee's string is not JSON: \(why)")
                return true
            }
            JSONComparison.walk(ev, av, "\(path) (JSON)", &c, stopAtFirst: false)
            return true
        }
        return false
    }

    static func hex(_ eb: [UInt8], actual: String, path: String, _ c: inout JSONComparison.Collector) -> Bool {
        if let e = containerCBOR(eb) {
            guard let ab = Hex.decode(actual) else {
                c.add(path, "expected hex of CBOR \(CBORDiff.kind(e)), got a string that is not hex: \(JSONComparison.render(.string(actual), max: 80))")
                return true
            }
            CBORDiff.compare(expected: e, expectedBytes: eb, actualBytes: ab, path: "\(path) (CBOR)", &c)
            return true
        }
        guard let ab = Hex.decode(actual) else { return false }
        if bytes(eb, ab, path: path, &c) { return true }
        return false
    }

    /// Deterministic CBOR with a container (array, map, tag) on top: nil for anything else, so a
    /// hash or key that happens to parse as a small integer or string is not taken for CBOR.
    static func containerCBOR(_ b: [UInt8]) -> CBOR? {
        guard b.count >= 2, let v = try? CBORReader.decode(b, maxDepth: 64) else { return nil }
        switch v {
        case .array, .map, .tagged: return v
        default: return nil
        }
    }

    /// Byte-level explanation of two unequal byte strings (signature halves, or the first
    /// differing byte of a long value); false for short values (shown in full by the caller).
    static func bytes(_ e: [UInt8], _ a: [UInt8], path: String, _ c: inout JSONComparison.Collector) -> Bool {
        if e.count == signatureLength {
            guard a.count == signatureLength else {
                c.add(path, "expected a \(signatureLength)-byte hybrid signature (Ed25519 || ML-DSA-65, SPEC.md §9.3), got \(a.count) bytes")
                return true
            }
            c.add(path, "hybrid signature (SPEC.md §9.3): " + halves(e[...], a[...]))
            return true
        }
        if e.count > signatureLength, a.count == e.count {
            let cut = e.count - signatureLength
            if e[..<cut] == a[..<cut] {
                c.add(path, "the last \(signatureLength) bytes (a hybrid signature, SPEC.md §9.3) differ: " + halves(e[cut...], a[cut...]) + "; the \(cut) bytes before them are equal")
                return true
            }
        }
        guard e.count > 32 || a.count > 32 else { return false }
        let common = min(e.count, a.count)
        var first = -1, differing = 0
        for i in 0..<common where e[i] != a[i] {
            if first < 0 { first = i }
            differing += 1
        }
        if first < 0 { first = common }
        let ex = Array(Hex.encode(e).unicodeScalars), ax = Array(Hex.encode(a).unicodeScalars)
        var msg = "\(e.count) bytes expected, \(a.count) got; first difference at byte \(first)"
        msg += differing > 0 ? " (\(differing) of the first \(common) bytes differ)" : " (one is a prefix of the other)"
        msg += ": expected \(JSONComparison.window(ex, at: 2 * first, before: 16, after: 48)), got \(JSONComparison.window(ax, at: 2 * first, before: 16, after: 48))"
        c.add(path, msg)
        return true
    }

    static func halves(_ e: ArraySlice<UInt8>, _ a: ArraySlice<UInt8>) -> String {
        let s = e.startIndex, t = a.startIndex
        let edSame = e[s..<s + ed25519Length] == a[t..<t + ed25519Length]
        let pqSame = e[(s + ed25519Length)...] == a[(t + ed25519Length)...]
        return "Ed25519 half (bytes 0–63) \(edSame ? "equal" : "differs"), ML-DSA-65 half (bytes 64–3372) \(pqSame ? "equal" : "differs")"
    }
}

/// Two CBOR items compared by path, naming major types (`.vectors key 0: expected text string
/// "318d…", got byte string h'318d…'`).
enum CBORDiff {
    static func compare(expected e: CBOR, expectedBytes: [UInt8], actualBytes: [UInt8], path: String, _ c: inout JSONComparison.Collector) {
        let before = c.total
        let a: CBOR
        do {
            a = try CBORReader.decode(actualBytes, maxDepth: 64)
        } catch {
            guard let lenient = try? LenientCBOR.decode(actualBytes) else {
                let why: String
                do { _ = try LenientCBOR.decode(actualBytes); why = "" } catch { why = error.description }
                c.add(path, "expected CBOR \(kind(e)) (\(expectedBytes.count) bytes), the testee's \(actualBytes.count) bytes are not well-formed CBOR: \(why)")
                return
            }
            c.add(path, "the testee's bytes are well-formed CBOR but not deterministic (SPEC.md §1): \(error)")
            a = lenient
        }
        walk(e, a, path, &c)
        if c.total == before && expectedBytes != actualBytes {
            // Items Swift calls equal (text in another Unicode normalisation) in other bytes.
            if !EncodedDiff.bytes(expectedBytes, actualBytes, path: path, &c) {
                c.add(path, "the items decode equal but the bytes differ: expected h'\(Hex.encode(expectedBytes))', got h'\(Hex.encode(actualBytes))' (text compares by UTF-8 bytes, never normalised)")
            }
        }
    }

    static func walk(_ e: CBOR, _ a: CBOR, _ path: String, _ c: inout JSONComparison.Collector) {
        guard !c.full, e != a else { return }
        switch (e, a) {
        case (.array(let x), .array(let y)):
            for (i, (u, v)) in zip(x, y).enumerated() { walk(u, v, "\(path)[\(i)]", &c) }
            if x.count != y.count { c.add(path, "expected an array of \(x.count) item(s), got \(y.count)") }
        case (.map(let x), .map(let y)):
            // Keys matched by value first; the unmatched ones paired in order when as many remain
            // on both sides (a key of the wrong major type), else reported missing / unexpected.
            var unmatchedX: [Int] = [], usedY = Set<Int>()
            for (i, u) in x.enumerated() {
                if let j = y.indices.first(where: { !usedY.contains($0) && y[$0].key == u.key }) {
                    usedY.insert(j)
                    walk(u.value, y[j].value, path + segment(u.key), &c)
                } else {
                    unmatchedX.append(i)
                }
            }
            let unmatchedY = y.indices.filter { !usedY.contains($0) }
            if unmatchedX.count == unmatchedY.count {
                for (i, j) in zip(unmatchedX, unmatchedY) {
                    c.add("\(path) key \(i)", "expected \(describe(x[i].key)), got \(describe(y[j].key))")
                    walk(x[i].value, y[j].value, path + segment(x[i].key), &c)
                }
            } else {
                for i in unmatchedX { c.add(path + segment(x[i].key), "missing (expected \(describe(x[i].value)))") }
                for j in unmatchedY { c.add(path + segment(y[j].key), "unexpected key (\(describe(y[j].key)), value \(describe(y[j].value)))") }
            }
        case (.tagged(let t, let u), .tagged(let s, let v)):
            if t != s { c.add(path, "expected tag \(t), got tag \(s)") }
            walk(u, v, "\(path)<tag \(t)>", &c)
        case (.bytes(let x), .bytes(let y)):
            if let inner = EncodedDiff.containerCBOR(x) {
                compare(expected: inner, expectedBytes: x, actualBytes: y, path: "\(path) (CBOR)", &c)
            } else if !EncodedDiff.bytes(x, y, path: path, &c) {
                c.add(path, "expected \(describe(e)), got \(describe(a))")
            }
        case (.text(let x), .text(let y)):
            c.add(path, "text string: " + JSONComparison.stringDifference(x, y))
        default:
            c.add(path, "expected \(describe(e)), got \(describe(a))")
        }
    }

    /// `.name` for an identifier-like text key, else `[<key in diagnostic notation>]`.
    static func segment(_ key: CBOR) -> String {
        if case .text(let s) = key, !s.isEmpty,
           s.unicodeScalars.allSatisfy({ ($0.value >= 0x61 && $0.value <= 0x7a) || ($0.value >= 0x41 && $0.value <= 0x5a) || ($0.value >= 0x30 && $0.value <= 0x39) || $0 == "_" }) {
            return ".\(s)"
        }
        return "[\(short(key))]"
    }

    /// The major type's name (RFC 8949 §3.1).
    static func kind(_ v: CBOR) -> String {
        switch v {
        case .unsigned: return "unsigned integer"
        case .negative: return "negative integer"
        case .bytes(let b): return "byte string of \(b.count) byte\(b.count == 1 ? "" : "s")"
        case .text: return "text string"
        case .array(let a): return "array of \(a.count)"
        case .map(let m): return "map of \(m.count)"
        case .tagged(let t, _): return "tag \(t)"
        case .simple: return "simple value"
        case .bool: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float: return "float"
        }
    }

    static func describe(_ v: CBOR) -> String {
        switch v {
        case .array, .map: return kind(v)
        default: return "\(kind(v)) \(short(v))"
        }
    }

    static func short(_ v: CBOR) -> String {
        let s = CBORDiagnostic.render(v)
        return s.count > 72 ? String(s.prefix(72)) + "…" : s
    }
}
