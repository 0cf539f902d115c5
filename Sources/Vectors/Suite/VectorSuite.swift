import Foundation
import Primitives

/// Generating, writing and verifying `vectors/`.
public enum VectorSuite {
    public struct GeneratedFile: Sendable {
        public var name: String
        public var bytes: [UInt8]
    }

    /// Every file `vectors/` must hold, byte for byte, including MANIFEST.json.
    public static func generateAll() throws -> (files: [GeneratedFile], vectorFiles: [VectorFile]) {
        try generate(formats: nil)
    }

    /// The files of `formats` only (or of every format when nil). MANIFEST.json lists every format,
    /// so it is produced only for the whole suite. One format is what a test or a maintainer
    /// working on that format needs: a debug-build generation of all ten formats takes minutes.
    ///
    /// `derived: false` leaves out the cases derived from the others (the §2.2 input battery, the
    /// member order, input before rules: five in six cases, and most of a debug build's time), for
    /// a test of the files' mechanics; what `vectors/` holds is always generated with them.
    public static func generate(formats: Set<String>?, derived: Bool = true) throws -> (files: [GeneratedFile], vectorFiles: [VectorFile]) {
        var files: [GeneratedFile] = []
        var vectorFiles: [VectorFile] = []
        var manifest: [CBOR] = []
        for handler in Reference.handlers where formats?.contains(handler.format) ?? true {
            var vf = try handler.generate()
            if derived {
                let own = vf
                vf.cases += try InputCases.derive(handler, from: own)
                vf.cases += try InputOrderCases.derive(handler, from: own)
                vf.cases += try InputBeforeRulesCases.derive(handler, from: own)
            }
            vf.wireVersion = handler.wireVersion
            try vf.validate()
            try selfCheck(vf, handler: handler)
            vectorFiles.append(vf)
            let json = vf.jsonBytes
            let cbor = vf.cborBytes
            files.append(GeneratedFile(name: "\(vf.format).json", bytes: json))
            files.append(GeneratedFile(name: "\(vf.format).cbor", bytes: cbor))
            for (name, bytes) in [("\(vf.format).json", json), ("\(vf.format).cbor", cbor)] {
                manifest.append(.object([
                    ("file", .text(name)),
                    ("format", .text(vf.format)),
                    ("sha256", .text(SHA256.hash(bytes).hex)),
                    ("cases", .unsigned(UInt64(vf.cases.count))),
                ]))
            }
        }
        guard formats == nil else { return (files, vectorFiles) }
        let manifestTree = CBOR.object([
            ("suite_version", .text(SuiteInfo.version)),
            ("layout_version", .unsigned(VectorFile.fileLayoutVersion)),
            ("files", .array(manifest)),
        ])
        files.append(GeneratedFile(name: "MANIFEST.json", bytes: Array(manifestTree.json.pretty.utf8)))
        return (files, vectorFiles)
    }

    /// Runs every case through the handler's JSON entry point — the same path `serve` uses — and
    /// demands the stored expectation. A generator bug that the JSON path would not reproduce stops
    /// generation instead of shipping.
    public static func selfCheck(_ vf: VectorFile, handler: any FormatHandler) throws {
        for c in vf.cases {
            let input = c.input.json
            switch c.expected {
            case .output(let o):
                let got: JSONValue
                do { got = try handler.run(op: c.op, input: input) } catch {
                    throw WireError(.inputBadValue, "self-check: \(c.id) expected output, reference rejected: \(error)", field: c.id)
                }
                guard got == o.json else {
                    throw WireError(.inputBadValue, "self-check: \(c.id) output differs from the generator's", field: c.id)
                }
            case .error(let code):
                let result = Result { () throws(WireError) -> JSONValue in try handler.run(op: c.op, input: input) }
                switch result {
                case .success:
                    throw WireError(.inputBadValue, "self-check: \(c.id) expected \(code.rawValue), reference accepted", field: c.id)
                case .failure(let error) where error.code != code:
                    throw WireError(.inputBadValue, "self-check: \(c.id) expected \(code.rawValue), got \(error.code.rawValue)", field: c.id)
                case .failure:
                    break
                }
            }
        }
    }

    /// Writes the files and returns what was written (one generation, not two).
    @discardableResult
    public static func write(to directory: URL, formats: Set<String>? = nil, derived: Bool = true) throws -> [VectorFile] {
        let (files, vectorFiles) = try generate(formats: formats, derived: derived)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for f in files {
            try Data(f.bytes).write(to: directory.appendingPathComponent(f.name))
        }
        return vectorFiles
    }

    /// One difference between `vectors/` on disk and a fresh generation.
    public struct Difference: Sendable, CustomStringConvertible {
        public var file: String
        public var caseID: String?
        public var detail: String
        public var description: String {
            if let caseID { return "\(file): \(caseID): \(detail)" }
            return "\(file): \(detail)"
        }
    }

    /// Regenerates in memory and compares with the directory, naming the cases that differ. With
    /// `formats`, only those formats' files are regenerated and compared (MANIFEST.json and files
    /// of other formats are not looked at).
    public static func verify(directory: URL, formats: Set<String>? = nil, derived: Bool = true) throws -> [Difference] {
        let (files, vectorFiles) = try generate(formats: formats, derived: derived)
        var diffs: [Difference] = []
        let expectedNames = Set(files.map(\.name))
        let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in present.sorted() where formats == nil && !expectedNames.contains(name) && (name.hasSuffix(".json") || name.hasSuffix(".cbor")) {
            diffs.append(Difference(file: name, caseID: nil, detail: "file is not produced by generate (stale?)"))
        }
        for f in files {
            let url = directory.appendingPathComponent(f.name)
            guard let data = try? Data(contentsOf: url) else {
                diffs.append(Difference(file: f.name, caseID: nil, detail: "missing"))
                continue
            }
            let onDisk = [UInt8](data)
            guard onDisk != f.bytes else { continue }
            let named = caseDifferences(file: f.name, onDisk: onDisk, vectorFiles: vectorFiles)
            if named.isEmpty {
                diffs.append(Difference(file: f.name, caseID: nil, detail: "bytes differ (\(onDisk.count) on disk, \(f.bytes.count) generated) outside any case"))
            } else {
                diffs.append(contentsOf: named)
            }
        }
        return diffs
    }

    /// Per-case comparison, so a failure names the ids that moved.
    static func caseDifferences(file: String, onDisk: [UInt8], vectorFiles: [VectorFile]) -> [Difference] {
        let format = String(file.split(separator: ".").first ?? "")
        guard let vf = vectorFiles.first(where: { $0.format == format }) else { return [] }
        let fresh = Dictionary(vf.cases.map { ($0.id, $0.tree) }, uniquingKeysWith: { a, _ in a })
        var old: [String: CBOR] = [:]
        if file.hasSuffix(".json") {
            guard let parsed = try? JSONValue.parse(String(decoding: onDisk, as: UTF8.self)),
                  let cases = parsed["cases"]?.arrayValue else {
                return [Difference(file: file, caseID: nil, detail: "does not parse as a vector file")]
            }
            var diffs: [Difference] = []
            var seen = Set<String>()
            for c in cases {
                guard let id = c["id"]?.stringValue else { continue }
                seen.insert(id)
                if let f = fresh[id] {
                    if f.json != c { diffs.append(Difference(file: file, caseID: id, detail: "case differs")) }
                } else {
                    diffs.append(Difference(file: file, caseID: id, detail: "case no longer generated"))
                }
            }
            for c in vf.cases where !seen.contains(c.id) {
                diffs.append(Difference(file: file, caseID: c.id, detail: "new case not on disk"))
            }
            return diffs
        }
        if file.hasSuffix(".cbor") {
            guard let parsed = try? CBORReader.decode(onDisk, maxDepth: 64), case .array(let cases)? = parsed["cases"] else {
                return [Difference(file: file, caseID: nil, detail: "does not decode as a deterministic CBOR vector file")]
            }
            for c in cases { if case .text(let id)? = c["id"] { old[id] = c } }
            var diffs: [Difference] = []
            for (id, c) in old.sorted(by: { $0.key < $1.key }) {
                if let f = fresh[id] {
                    if CBORWriter.encode(f) != CBORWriter.encode(c) { diffs.append(Difference(file: file, caseID: id, detail: "case differs")) }
                } else {
                    diffs.append(Difference(file: file, caseID: id, detail: "case no longer generated"))
                }
            }
            for c in vf.cases where old[c.id] == nil {
                diffs.append(Difference(file: file, caseID: c.id, detail: "new case not on disk"))
            }
            return diffs
        }
        return []
    }
}
