import Primitives

/// One format's golden file pair: `vectors/<format>.json` and `vectors/<format>.cbor`.
public struct VectorFile: Sendable {
    /// Bumped when the layout of the files themselves changes (not when cases are added).
    public static let fileLayoutVersion: UInt64 = 1

    public var format: String
    /// The format's wire version (state_digest: `StateDigest.wireVersion`).
    public var wireVersion: UInt64 = 1
    public var description: String
    public var cases: [VectorCase]
    public var withdrawn: [WithdrawnCase]

    public init(format: String, description: String, cases: [VectorCase], withdrawn: [WithdrawnCase] = []) {
        self.format = format
        self.description = description
        self.cases = cases
        self.withdrawn = withdrawn
    }

    public var tree: CBOR {
        .object([
            ("format", .text(format)),
            ("layout_version", .unsigned(VectorFile.fileLayoutVersion)),
            ("suite_version", .text(SuiteInfo.version)),
            ("wire_version", .unsigned(wireVersion)),
            ("description", .text(description)),
            ("withdrawn", .array(withdrawn.map { .object([("id", .text($0.id)), ("reason", .text($0.reason))]) })),
            ("cases", .array(cases.map(\.tree))),
        ])
    }

    /// The JSON file's exact bytes.
    public var jsonBytes: [UInt8] { Array(tree.json.pretty.utf8) }
    /// The CBOR twin's exact bytes (RFC 8949 §4.2.1).
    public var cborBytes: [UInt8] { CBORWriter.encode(tree) }

    /// Checks the invariants every file must hold before it is written: ids unique, well formed,
    /// under this format, never a withdrawn id.
    public func validate() throws(WireError) {
        var seen = Set<String>()
        let withdrawnIDs = Set(withdrawn.map(\.id))
        for c in cases {
            let parts = c.id.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts.allSatisfy({ !$0.isEmpty }), parts[0] == format[...], parts[1] == c.op[...] else {
                throw WireError(.inputBadValue, "case id \(c.id) is not <format>/<op>/<group>/<name> for \(format)", field: c.id)
            }
            guard seen.insert(c.id).inserted else {
                throw WireError(.inputBadValue, "case id \(c.id) appears twice", field: c.id)
            }
            guard !withdrawnIDs.contains(c.id) else {
                throw WireError(.inputBadValue, "case id \(c.id) was withdrawn and cannot be reused", field: c.id)
            }
        }
    }
}

/// The suite's identity, printed in handshakes and written in every file.
public enum SuiteInfo {
    public static let version = "0.1.0"
}
