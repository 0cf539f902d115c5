import Foundation

/// Locates known-answer files copied into `Tests/PrimitivesTests/KAT/` (see its PROVENANCE.md).
/// Found relative to this source file so no resource bundle is needed.
enum KATFile {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PrimitivesTests
        .appendingPathComponent("KAT")

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }

    static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: url(relative))
    }
}

/// One record of a NIST CAVP `.rsp` file: `KEY = value` lines grouped by blank lines,
/// with the most recent `[section]` header attached.
struct RSPRecord {
    var section: [String: String]
    var fields: [String: String]
}

enum RSP {
    /// Parses CAVP response text (CRLF or LF). Comment lines start with `#`.
    static func parse(_ text: String) -> [RSPRecord] {
        var records: [RSPRecord] = []
        var section: [String: String] = [:]
        var current: [String: String] = [:]
        var sectionOpen = false
        func flush() {
            if !current.isEmpty { records.append(RSPRecord(section: section, fields: current)) }
            current = [:]
        }
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { flush(); continue }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                flush()
                if !sectionOpen { section = [:] }
                sectionOpen = true
                let inner = line.dropFirst().dropLast()
                if let eq = inner.firstIndex(of: "=") {
                    section[inner[..<eq].trimmingCharacters(in: .whitespaces)] =
                        inner[inner.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                } else {
                    section[String(inner)] = ""
                }
                continue
            }
            sectionOpen = false
            if let eq = line.firstIndex(of: "=") {
                current[line[..<eq].trimmingCharacters(in: .whitespaces)] =
                    line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            } else {
                current[line] = ""
            }
        }
        flush()
        return records
    }
}
