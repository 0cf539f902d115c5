import Foundation
import Vectors

/// Why `vectors/` could not be loaded (a usage error: exit 2).
public struct SuiteLoadError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String
    public var description: String { "\(file): \(reason)" }
}

/// Reads every `<format>.json` vector file of a directory (MANIFEST.json excluded), in file-name
/// order, cases in file order, so a run's case order is stable.
public enum SuiteLoader {
    /// Every format's file of `directory`.
    public static func load(directory: URL) throws(SuiteLoadError) -> [SuiteCase] {
        try load(directory: directory, formats: nil)
    }

    /// Only the files of `formats` (`<format>.json`), or every file when `formats` is nil. Reading
    /// one format's file costs a fraction of parsing all 24 MB of them, which is what a caller
    /// that runs one format (the tests, a team working on one format) wants.
    public static func load(directory: URL, formats: Set<String>?) throws(SuiteLoadError) -> [SuiteCase] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw SuiteLoadError(file: directory.path, reason: "cannot list the vectors directory (\(error.localizedDescription))")
        }
        var cases: [SuiteCase] = []
        var seen = Set<String>()
        for name in names.sorted() where name.hasSuffix(".json") && name != "MANIFEST.json" {
            if let formats, !formats.contains(String(name.dropLast(".json".count))) { continue }
            let url = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else { throw SuiteLoadError(file: url.path, reason: "unreadable") }
            for c in try parse(String(decoding: data, as: UTF8.self), file: url.path) {
                guard seen.insert(c.id).inserted else { throw SuiteLoadError(file: url.path, reason: "case id \(c.id) appears twice") }
                cases.append(c)
            }
        }
        if cases.isEmpty { throw SuiteLoadError(file: directory.path, reason: "no vector cases found") }
        return cases
    }

    /// Parses one vector file's text.
    public static func parse(_ text: String, file: String) throws(SuiteLoadError) -> [SuiteCase] {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch { throw SuiteLoadError(file: file, reason: "\(error)") }
        guard let format = root["format"]?.stringValue else { throw SuiteLoadError(file: file, reason: "no \"format\"") }
        guard let items = root["cases"]?.arrayValue else { throw SuiteLoadError(file: file, reason: "no \"cases\" array") }
        var out: [SuiteCase] = []
        for (i, item) in items.enumerated() {
            guard let id = item["id"]?.stringValue, let op = item["op"]?.stringValue, let input = item["input"],
                  let expected = item["expected"] else {
                throw SuiteLoadError(file: file, reason: "cases[\(i)] needs id, op, input and expected")
            }
            let exp: SuiteCase.Expected
            if let o = expected["output"] {
                exp = .output(o)
            } else if let e = expected["error"]?.stringValue {
                exp = .error(e)
            } else {
                throw SuiteLoadError(file: file, reason: "\(id): expected needs output or error")
            }
            out.append(SuiteCase(id: id, format: format, op: op, comment: item["comment"]?.stringValue ?? "",
                                 flags: item["flags"]?.arrayValue?.compactMap(\.stringValue) ?? [], input: input, expected: exp))
        }
        return out
    }
}
