import Primitives

/// One decoding surface of the reference, as a coverage-guided fuzzer attacks it (issue 27).
///
/// `conformance fuzz` compares a testee with the reference; a surface turns the reference's own
/// decoders into a target a hostile peer's bytes reach: `check` takes any bytes and says what is
/// wrong, beyond a trap (which the fuzzing engine sees by itself). What must hold is stated per
/// surface: a value that decodes re-encodes to the same bytes where SPEC.md says the encoding is
/// canonical, a rejection carries a code of the format rather than of the op-input layer (the
/// fuzzed bytes always arrive in a well-formed op input, so an `input_*` code means the decoder
/// mistook its own fault for the caller's), and an answer renders as JSON that reads back equal.
///
/// Surfaces live with their format (`<Format>FuzzSurfaces.swift`) and are listed in
/// `FuzzSurfaces.all`; the `Fuzz/` package builds one libFuzzer target per surface, and
/// `conformance fuzz-corpus` writes each one's seeds (every input of every case of its ops) and
/// dictionary from the committed vectors.
public struct FuzzSurface: Sendable {
    /// Target name, `[a-z0-9_]+` (the libFuzzer binary is `fuzz_<name>`).
    public let name: String
    /// What the surface decodes and what `check` asserts, one line.
    public let summary: String
    /// The vector cases that seed it: the format, and the ops whose inputs it takes (empty: all).
    public let seedFormats: [String]
    public let seedOps: Set<String>
    /// The bytes one vector case contributes to the corpus (nil: none).
    public let seed: @Sendable (VectorCase) -> [UInt8]?
    /// Nil when everything that must hold holds for these bytes; otherwise what does not.
    public let check: @Sendable ([UInt8]) -> String?
    /// Whether the seeds are CBOR (dictionary: their map keys) or JSON text (their object keys).
    public let seedSyntax: SeedSyntax
    /// Seeds built in code, for a layer no op input carries (a plaintext only ever seen sealed).
    public let extraSeeds: @Sendable () -> [[UInt8]]

    public enum SeedSyntax: Sendable { case cbor, json, bytes }

    public init(name: String, summary: String, seedFormats: [String], seedOps: Set<String> = [], seedSyntax: SeedSyntax,
                seed: @escaping @Sendable (VectorCase) -> [UInt8]?, extraSeeds: @escaping @Sendable () -> [[UInt8]] = { [] },
                check: @escaping @Sendable ([UInt8]) -> String?) {
        self.name = name
        self.summary = summary
        self.seedFormats = seedFormats
        self.seedOps = seedOps
        self.seedSyntax = seedSyntax
        self.seed = seed
        self.extraSeeds = extraSeeds
        self.check = check
    }

    /// The codes of the op-input layer (SPEC.md §2.2) and of dispatch: a decoder handed a
    /// well-formed input never answers with one of them.
    public static let inputLayerCodes: Set<ErrorCode> = [
        .inputMissingField, .inputBadType, .inputBadLength, .inputBadValue, .unknownField, .unknownOp, .unknownFormat,
    ]
}

/// How the fuzzed bytes enter a decode op's input.
public enum FuzzCarrier: Sendable {
    /// As lowercase hex in this member (binary wire formats).
    case hex(String)
    /// As a JSON string in this member (text wire formats); bytes that are not UTF-8 are outside
    /// the surface, since no op input can carry them.
    case text(String)

    var member: String {
        switch self {
        case .hex(let m), .text(let m): return m
        }
    }

    /// The member's value for these bytes; nil for bytes that are not UTF-8 in a text carrier.
    func value(_ bytes: [UInt8]) -> JSONValue? {
        switch self {
        case .hex: return .string(Hex.encode(bytes))
        case .text: return String(validating: bytes, as: UTF8.self).map(JSONValue.string)
        }
    }

    /// The bytes a member's text carries; nil when it is not hex in a hex carrier.
    func bytes(_ text: String) -> [UInt8]? {
        switch self {
        case .hex: return Hex.decode(text)
        case .text: return Array(text.utf8)
        }
    }

    /// The seeds' syntax: CBOR behind hex, JSON behind text.
    var seedSyntax: FuzzSurface.SeedSyntax {
        switch self {
        case .hex: return .cbor
        case .text: return .json
        }
    }
}

/// Where SPEC.md says a wire encoding is canonical: the op that encodes a decoded value, how the
/// decode op's output becomes its input, and the output member that holds the bytes.
public struct FuzzReencode: Sendable {
    public let op: String
    public let member: String
    public let input: @Sendable (JSONValue) -> JSONValue
    /// True where SPEC makes the encoding canonical: the bytes must come back exactly. False for a
    /// tolerant reader (reconcile frames ignore unknown members and take any JSON spelling): the
    /// re-encoding must then decode to the same value.
    public let exact: Bool

    public init(op: String, member: String, exact: Bool = true, input: @escaping @Sendable (JSONValue) -> JSONValue = { $0 }) {
        self.op = op
        self.member = member
        self.exact = exact
        self.input = input
    }
}

/// One decode op a surface drives: where the fuzzed bytes go, the op input's other members, and
/// where SPEC.md makes the encoding canonical.
public struct FuzzDecodeOp: Sendable {
    public let op: String
    public let carrier: FuzzCarrier
    public let context: [(String, JSONValue)]
    public let reencode: FuzzReencode?
    /// Op-input codes this op's own rules use for bytes (each with SPEC's reason at the call site).
    public let allowedInputCodes: Set<ErrorCode>

    public init(_ op: String, _ carrier: FuzzCarrier, context: [(String, JSONValue)] = [], reencode: FuzzReencode? = nil,
                allowedInputCodes: Set<ErrorCode> = []) {
        self.op = op
        self.carrier = carrier
        self.context = context
        self.reencode = reencode
        self.allowedInputCodes = allowedInputCodes
    }
}

extension FuzzSurface {
    /// A format's decode ops as one surface. With more than one op the first byte picks the op
    /// (modulo their count) and the rest is the op's bytes. The bytes go into the carrier's member
    /// beside the fixed context members, the op runs through the handler exactly as `serve` runs
    /// it, and:
    /// - a rejection must not carry an op-input code (unless the op lists it);
    /// - an answer must render to JSON that parses back equal;
    /// - with a re-encoding, the answer must encode back to exactly the bytes that were decoded.
    public static func decodeOps(_ name: String, _ summary: String, handler: any FormatHandler, _ ops: [FuzzDecodeOp]) -> FuzzSurface {
        let selects = ops.count > 1
        return FuzzSurface(
            name: name, summary: summary, seedFormats: [handler.format], seedOps: Set(ops.map(\.op)), seedSyntax: ops[0].carrier.seedSyntax,
            seed: { c in
                guard let i = ops.firstIndex(where: { $0.op == c.op }) else { return nil }
                let d = ops[i]
                guard let v = c.input.json[d.carrier.member]?.stringValue else { return nil }
                return d.carrier.bytes(v).map { selects ? [UInt8(i)] + $0 : $0 }
            },
            check: { data in
                guard !selects || !data.isEmpty else { return nil }
                let d = selects ? ops[Int(data[0]) % ops.count] : ops[0]
                return decodeCheck(d, handler: handler, bytes: selects ? Array(data.dropFirst()) : data)
            })
    }

    static func decodeCheck(_ d: FuzzDecodeOp, handler: any FormatHandler, bytes: [UInt8]) -> String? {
        let member = d.carrier.member
        guard let value = d.carrier.value(bytes) else { return nil }
        let input = { (v: JSONValue) in JSONValue.object(d.context.filter { $0.0 != member } + [(member, v)]) }
        let output: JSONValue
        do {
            output = try handler.run(op: d.op, input: input(value))
        } catch {
            if inputLayerCodes.contains(error.code), !d.allowedInputCodes.contains(error.code) {
                return "\(d.op) rejected well-formed input with the op-input code \(error.code.rawValue): \(error)"
            }
            return nil
        }
        if let why = rendersBack(output) { return "\(d.op) answer: \(why)" }
        guard let reencode = d.reencode else { return nil }
        let encoded: JSONValue
        do {
            encoded = try handler.run(op: reencode.op, input: reencode.input(output))
        } catch {
            return "\(d.op) accepted bytes whose decoded value \(reencode.op) refuses (\(error)); decoded: \(output.compact.prefix(300))"
        }
        guard let again = encoded[reencode.member]?.stringValue.flatMap(d.carrier.bytes) else {
            return "\(reencode.op) answered without a \(reencode.member) member: \(encoded.compact.prefix(300))"
        }
        if !reencode.exact {
            // Not canonical: the encoder's bytes need only decode (once) to the same value, and
            // that answer must render back like any other.
            guard let againValue = d.carrier.value(again) else { return "\(reencode.op) wrote bytes that are not UTF-8" }
            let back: JSONValue
            do { back = try handler.run(op: d.op, input: input(againValue)) } catch {
                return "\(reencode.op) wrote bytes \(d.op) refuses (\(error)): \(String(decoding: again.prefix(200), as: UTF8.self))"
            }
            if let why = rendersBack(back) { return "the re-encoding of a decoded value: \(d.op) answer: \(why)" }
            return back == output ? nil : "\(d.op) of \(reencode.op)'s bytes differs from the value they encode: \(back.compact.prefix(200)) vs \(output.compact.prefix(200))"
        }
        guard again == bytes else {
            return "\(d.op) accepted a non-canonical encoding: \(reencode.op) of the decoded value gives \(again.count) byte(s) that differ from the \(bytes.count) decoded"
        }
        return nil
    }

    /// The whole op input as the fuzzed JSON text: the op-input layer (§2.2) and the op together.
    /// Any answer is acceptable but a trap or an answer that does not render back.
    public static func opInput(_ name: String, _ summary: String, handler: any FormatHandler, ops: [String]) -> FuzzSurface {
        let opSet = Set(ops)
        return FuzzSurface(
            name: name, summary: summary, seedFormats: [handler.format], seedOps: opSet, seedSyntax: .json,
            seed: { c in
                // The op is chosen by the first byte, so one target covers several ops.
                guard let i = ops.firstIndex(of: c.op) else { return nil }
                return [UInt8(i)] + Array(c.input.json.compact.utf8)
            },
            check: { bytes in
                guard let first = bytes.first else { return nil }
                let op = ops[Int(first) % ops.count]
                guard let text = String(validating: bytes.dropFirst(), as: UTF8.self),
                      let input = try? JSONValue.parse(text) else { return nil }
                do throws(WireError) {
                    let output = try handler.run(op: op, input: input)
                    if let why = rendersBack(output) { return "\(op) answer: \(why)" }
                } catch {
                    if error.code == .unknownOp || error.code == .unknownFormat { return "\(op) answered \(error.code.rawValue)" }
                }
                return nil
            })
    }

    /// A decoder and the encoder of what it returns, called directly, for a layer no op carries
    /// as bytes of its own (the envelope's inner plaintext) or whose encode op needs a signature
    /// (SenderCert): `decode` returns the value's canonical encoding, which must equal the input.
    /// A rejection must carry a code of the format, not of the op-input layer.
    public static func canonical(_ name: String, _ summary: String, format: String, seedOps: Set<String> = [], seed: @escaping @Sendable (VectorCase) -> [UInt8]? = { _ in nil },
                          extraSeeds: @escaping @Sendable () -> [[UInt8]] = { [] },
                          decode: @escaping @Sendable ([UInt8]) throws(WireError) -> [UInt8]) -> FuzzSurface {
        FuzzSurface(name: name, summary: summary, seedFormats: [format], seedOps: seedOps, seedSyntax: .cbor, seed: seed, extraSeeds: extraSeeds) { bytes in
            let again: [UInt8]
            do throws(WireError) { again = try decode(bytes) } catch {
                return inputLayerCodes.contains(error.code) ? "rejected with the op-input code \(error.code.rawValue): \(error)" : nil
            }
            return again == bytes ? nil : "accepted a non-canonical encoding: the decoded value encodes to \(again.count) byte(s) that differ from the \(bytes.count) decoded"
        }
    }

    /// The member of a case's input holding hex bytes (a seed function).
    public static func hexMember(_ member: String) -> @Sendable (VectorCase) -> [UInt8]? {
        { c in c.input.json[member]?.stringValue.flatMap(Hex.decode) }
    }

    /// An answer is a JSON value the runner reads back unchanged.
    public static func rendersBack(_ v: JSONValue) -> String? {
        let text = v.compact
        guard let back = try? JSONValue.parse(text) else { return "renders as JSON that does not parse: \(text.prefix(200))" }
        guard back == v else { return "renders as JSON that parses to a different value: \(text.prefix(200))" }
        return nil
    }
}

/// A finding: the surface, the input and what went wrong (the fuzz targets print it, then trap).
public struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    public let surface: String
    public let input: [UInt8]
    public let what: String
    public var description: String { "fuzz_\(surface): \(what) (input \(input.count) byte(s): \(Hex.encode(input.prefix(64)))\(input.count > 64 ? "…" : ""))" }
}

extension FuzzSurface {
    /// Runs the check; a finding as a value.
    public func run(_ bytes: [UInt8]) -> FuzzFinding? {
        check(bytes).map { FuzzFinding(surface: name, input: bytes, what: $0) }
    }

    /// The corpus seeds from a format's vector file: every case of the surface's ops, once each.
    public func seeds(from file: VectorFile) -> [[UInt8]] {
        guard seedFormats.contains(file.format) else { return [] }
        var seen = Set<[UInt8]>()
        var out: [[UInt8]] = []
        for c in file.cases where seedOps.isEmpty || seedOps.contains(c.op) {
            guard let s = seed(c), seen.insert(s).inserted else { continue }
            out.append(s)
        }
        return out
    }

    /// libFuzzer dictionary tokens from the seeds: the map keys and short text values of CBOR
    /// seeds, the object keys of JSON seeds, each in the bytes it has on the wire.
    public func dictionary(seeds: [[UInt8]]) -> [[UInt8]] {
        var tokens = Set<[UInt8]>()
        for s in seeds {
            switch seedSyntax {
            case .cbor:
                // A seed may start with the byte that picks the op.
                if let v = (try? CBORReader.decode(s, maxDepth: 64)) ?? (try? CBORReader.decode(Array(s.dropFirst()), maxDepth: 64)) {
                    FuzzSurface.cborTokens(v, into: &tokens)
                }
            case .json:
                let text = s.first.map { $0 < 0x20 ? Array(s.dropFirst()) : s } ?? s
                if let v = try? JSONValue.parse(String(decoding: text, as: UTF8.self)) { FuzzSurface.jsonTokens(v, into: &tokens) }
            case .bytes:
                // Line-based text (HTTP): each line's first word or field name, with its delimiter.
                for line in s.split(separator: 0x0a) {
                    if let colon = line.firstIndex(of: 0x3a), colon - line.startIndex <= 40 { tokens.insert(Array(line[...colon])) }
                    if let space = line.firstIndex(of: 0x20), space - line.startIndex <= 10 { tokens.insert(Array(line[...space])) }
                }
            }
        }
        return tokens.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func cborTokens(_ v: CBOR, into tokens: inout Set<[UInt8]>) {
        switch v {
        case .map(let entries):
            for e in entries {
                tokens.insert(CBORWriter.encode(e.key))
                cborTokens(e.value, into: &tokens)
            }
        case .array(let items):
            items.forEach { cborTokens($0, into: &tokens) }
        case .text(let s) where s.utf8.count <= 32:
            tokens.insert(CBORWriter.encode(v))
        case .tagged(_, let x):
            cborTokens(x, into: &tokens)
        default:
            break
        }
    }

    static func jsonTokens(_ v: JSONValue, into tokens: inout Set<[UInt8]>) {
        switch v {
        case .object(let members):
            for (k, x) in members {
                tokens.insert(Array(JSONValue.string(k).compact.utf8))
                jsonTokens(x, into: &tokens)
            }
        case .array(let items):
            items.forEach { jsonTokens($0, into: &tokens) }
        case .string(let s) where s.utf8.count <= 24:
            tokens.insert(Array(v.compact.utf8))
        default:
            break
        }
    }
}

extension FuzzReencode {
    /// The decoded value with only these members (the encode op takes no others).
    public static func keeping(_ keys: [String]) -> @Sendable (JSONValue) -> JSONValue {
        { v in .object((v.objectValue ?? []).filter { keys.contains($0.0) }) }
    }
}
