import Foundation

/// A committed vector file read back: `vectors/<format>.json` as the runner sees it.
///
/// Why: judging the reference (or a mutant of it) against the vectors needs the cases, not a fresh
/// generation of them. A debug-build generation of every format takes minutes (ML-DSA signing,
/// HPKE, the 65,536-row buckets); reading one format's committed file takes a fraction of a
/// second. That the committed bytes are exactly what generation gives is `conformance verify`'s
/// proof, made once per CI run in release.
extension VectorFile {
    /// Reads `<format>.json` from `directory`. The cases' data is held as JSON in the vector-data
    /// tree (`CBOR(json:)`), so `case.input.json` is byte for byte the input a testee is sent.
    public static func read(format: String, in directory: URL) throws -> VectorFile {
        let url = directory.appendingPathComponent("\(format).json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let file = try read(json: text)
        guard file.format == format else {
            throw WireError(.inputBadValue, "\(url.lastPathComponent) holds format \(file.format)", field: "format")
        }
        return file
    }

    /// Parses a vector file's JSON text; a member a vector file must have and lacks, or an expected
    /// error code outside SPEC §3's list, is an `input_bad_value` naming the case.
    public static func read(json text: String) throws(WireError) -> VectorFile {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw WireError(.inputBadValue, "the vector file is not JSON: \(error)", field: "file")
        }
        guard let format = root["format"]?.stringValue, let items = root["cases"]?.arrayValue else {
            throw WireError(.inputBadValue, "a vector file needs \"format\" and \"cases\"", field: "format")
        }
        var cases: [VectorCase] = []
        cases.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let id = item["id"]?.stringValue, let op = item["op"]?.stringValue, let input = item["input"],
                  let expected = item["expected"] else {
                throw WireError(.inputBadValue, "cases[\(i)] needs id, op, input and expected", field: "cases[\(i)]")
            }
            let exp: VectorCase.Expected
            if let output = expected["output"] {
                exp = .output(CBOR(json: output))
            } else if let name = expected["error"]?.stringValue, let code = ErrorCode(rawValue: name) {
                exp = .error(code)
            } else {
                throw WireError(.inputBadValue, "\(id): expected holds neither an output nor a §3 error code", field: id)
            }
            cases.append(VectorCase(id: id, op: op, comment: item["comment"]?.stringValue ?? "",
                                    flags: item["flags"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                                    input: CBOR(json: input), expected: exp))
        }
        let withdrawn = (root["withdrawn"]?.arrayValue ?? []).compactMap { w -> WithdrawnCase? in
            guard let id = w["id"]?.stringValue else { return nil }
            return WithdrawnCase(id: id, reason: w["reason"]?.stringValue ?? "")
        }
        var file = VectorFile(format: format, description: root["description"]?.stringValue ?? "", cases: cases, withdrawn: withdrawn)
        if let v = root["wire_version"]?.int64Value, v >= 0 { file.wireVersion = UInt64(v) }
        return file
    }
}

extension CBOR {
    /// A JSON value as vector data whose `json` is that same value: numbers stay the literals they
    /// were written as (tag 262, `jsonNumber`), strings stay strings (hex is not turned back into
    /// bytes: the tree stands for the JSON, not for the wire).
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let literal): self = .jsonNumber(literal)
        case .string(let s): self = .text(s)
        case .array(let items): self = .array(items.map(CBOR.init(json:)))
        case .object(let members): self = .object(members.map { ($0.0, CBOR(json: $0.1)) })
        }
    }
}
