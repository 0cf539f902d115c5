import Foundation
import Vectors

/// Writes each minimal difference as a vector case to `<dir>/<format>.json`, in the layout of
/// SPEC §2, so `conformance run --vectors <dir> -- CMD` replays it and a maintainer can move it
/// into the golden set. Cases already in the file are kept (a case with the same id is replaced).
public enum FuzzWriter {
    /// `<format>/<op>/fuzz/<seed>-<n>`: a §2 id (format, op, group, name) naming where it came from.
    public static func vectorID(_ d: FuzzDifference, seed: UInt64) -> String {
        let n = d.original.id.split(separator: "/").last.map(String.init) ?? "0"
        return "\(d.format)/\(d.op)/fuzz/\(FuzzSeed.text(seed))-\(n)"
    }

    /// One line naming the difference.
    public static func comment(_ d: FuzzDifference, seed: UInt64) -> String {
        let line = "conformance fuzz --seed \(FuzzSeed.text(seed)), \(d.original.id): the testee's \(d.failure.kind.rawValue) (\(d.failure.summary)); shrunk in \(d.shrinkSteps) step(s)"
        return line.replacingOccurrences(of: "\n", with: " ")
    }

    /// Writes the differences, grouped by format; returns format → file path. Sets `writtenID`.
    public static func write(_ result: inout FuzzResult, to dir: URL, handlers: [any FormatHandler]) throws -> [String: String] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var written: [String: String] = [:]
        var formats: [String] = []
        for d in result.differences where !formats.contains(d.format) { formats.append(d.format) }
        for format in formats {
            let url = dir.appendingPathComponent("\(format).json")
            var cases: [JSONValue] = []
            if let data = try? Data(contentsOf: url), let old = try? JSONValue.parse(String(decoding: data, as: UTF8.self)),
               old["format"]?.stringValue == format {
                cases = old["cases"]?.arrayValue ?? []
            }
            for i in result.differences.indices where result.differences[i].format == format {
                let d = result.differences[i]
                let id = vectorID(d, seed: result.seed)
                result.differences[i].writtenID = id
                let expected: JSONValue
                switch d.minimal.expected {
                case .output(let o): expected = .object([("output", o)])
                case .error(let e): expected = .object([("error", .string(e))])
                }
                var flags: [JSONValue] = [.string("fuzz"), .string("seed:\(FuzzSeed.text(result.seed))")]
                if case .error = d.minimal.expected { flags.append(.string("negative")) }
                let c: JSONValue = .object([("id", .string(id)), ("op", .string(d.op)), ("comment", .string(comment(d, seed: result.seed))),
                                            ("flags", .array(flags)), ("input", d.minimal.input), ("expected", expected)])
                cases.removeAll { $0["id"]?.stringValue == id }
                cases.append(c)
            }
            let wire = handlers.first { $0.format == format }?.wireVersion ?? 1
            let file: JSONValue = .object([
                ("format", .string(format)),
                ("layout_version", .number(String(VectorFile.fileLayoutVersion))),
                ("suite_version", .string(SuiteInfo.version)),
                ("wire_version", .number(String(wire))),
                ("description", .string("Differences found by conformance fuzz, shrunk; each expected answer is the reference's.")),
                ("withdrawn", .array([])),
                ("cases", .array(cases)),
            ])
            try Data(file.pretty.utf8).write(to: url)
            written[format] = url.path
        }
        result.written = written
        return written
    }
}

/// How seeds are read and printed: `0x` and 16 hex digits, or a decimal.
public enum FuzzSeed {
    public static func text(_ s: UInt64) -> String {
        let h = String(s, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - h.count) + h
    }

    public static func parse(_ s: String) -> UInt64? {
        if s.hasPrefix("0x") || s.hasPrefix("0X") { return UInt64(s.dropFirst(2), radix: 16) }
        return UInt64(s)
    }
}
