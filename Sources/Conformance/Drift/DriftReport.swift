import Foundation
import Vectors

/// `conformance drift`: compares a release's vectors with an earlier release's and enforces the
/// rule of SPEC.md §2.1 — under an unchanged wire version, an existing case keeps its input and
/// expected output, and a case disappears only by being withdrawn.
public struct DriftReport: Sendable {
    public struct FormatDrift: Sendable {
        public var format: String
        public var baselineWireVersion: UInt64?
        public var currentWireVersion: UInt64?
        public var added: [String] = []
        public var removed: [String] = []
        public var withdrawn: [String] = []
        public var changed: [Change] = []

        public var versionBumped: Bool { baselineWireVersion != currentWireVersion }

        /// Rule breaks: changes or silent removals under an unchanged wire version.
        public var violations: [String] {
            guard !versionBumped else { return [] }
            return changed.map { "\($0.id): \($0.what) changed under wire_version \(currentWireVersion ?? 0)" + ($0.detail.map { " — \($0)" } ?? "") }
                + removed.map { "\($0): removed without being withdrawn" }
        }
    }

    public struct Change: Sendable {
        public var id: String
        /// "input", "expected" or "input and expected".
        public var what: String
        /// For state_digest leaves: the namespace and the first field whose encoding changed.
        public var detail: String?
    }

    public var formats: [FormatDrift]
    public var failed: Bool { formats.contains { !$0.violations.isEmpty } }

    /// A hook that explains a changed case (the runner's leaf diagnosis names the field).
    public typealias Explainer = @Sendable (_ format: String, _ baseline: JSONValue, _ current: JSONValue) -> String?

    public static func compare(baseline: URL, current: URL, explain: Explainer? = nil) throws -> DriftReport {
        let names = Set(try vectorFiles(baseline).keys).union(try vectorFiles(current).keys).sorted()
        let b = try vectorFiles(baseline), c = try vectorFiles(current)
        var formats: [FormatDrift] = []
        for name in names {
            var d = FormatDrift(format: name, baselineWireVersion: b[name]?["wire_version"]?.uint64Value,
                                currentWireVersion: c[name]?["wire_version"]?.uint64Value)
            // A baseline made before wire_version existed: state_digest read from its digest vectors.
            if d.baselineWireVersion == nil, b[name] != nil { d.baselineWireVersion = name == "state_digest" ? 6 : 1 }
            let old = cases(b[name]), new = cases(c[name])
            let withdrawn = Set((c[name]?["withdrawn"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            for (id, nc) in new.sorted(by: { $0.key < $1.key }) {
                guard let oc = old[id] else { d.added.append(id); continue }
                let inputChanged = oc["input"] != nc["input"]
                let expectedChanged = oc["expected"] != nc["expected"]
                if inputChanged || expectedChanged {
                    let what = inputChanged && expectedChanged ? "input and expected" : inputChanged ? "input" : "expected"
                    d.changed.append(Change(id: id, what: what, detail: explain?(name, oc, nc)))
                }
            }
            for id in old.keys.sorted() where new[id] == nil {
                if withdrawn.contains(id) { d.withdrawn.append(id) } else { d.removed.append(id) }
            }
            formats.append(d)
        }
        return DriftReport(formats: formats)
    }

    static func vectorFiles(_ dir: URL) throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        for n in names where n.hasSuffix(".json") && n != "MANIFEST.json" {
            let text = try String(contentsOf: dir.appendingPathComponent(n), encoding: .utf8)
            let json = try JSONValue.parse(text)
            out[json["format"]?.stringValue ?? String(n.dropLast(5))] = json
        }
        return out
    }

    static func cases(_ file: JSONValue?) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for c in file?["cases"]?.arrayValue ?? [] { if let id = c["id"]?.stringValue { out[id] = c } }
        return out
    }

    /// Lines for a CI log.
    public var text: String {
        var lines: [String] = []
        for f in formats {
            let version = f.versionBumped ? "wire_version \(f.baselineWireVersion.map(String.init) ?? "none") → \(f.currentWireVersion.map(String.init) ?? "none")"
                : "wire_version \(f.currentWireVersion ?? 0) (unchanged)"
            lines.append("\(f.format): \(version); \(f.added.count) added, \(f.changed.count) changed, \(f.removed.count) removed, \(f.withdrawn.count) withdrawn")
            for v in f.violations { lines.append("  DRIFT \(v)") }
            if f.versionBumped { for c in f.changed.prefix(20) { lines.append("  changed (allowed by the version bump): \(c.id)" + (c.detail.map { " — \($0)" } ?? "")) } }
        }
        let n = formats.reduce(0) { $0 + $1.violations.count }
        lines.append(failed ? "drift: \(n) violation(s): bump the format's wire version (and SPEC.md) or restore the vectors" : "drift: no violations")
        return lines.joined(separator: "\n")
    }

    /// The JSON report.
    public var json: JSONValue {
        .object([
            ("failed", .bool(failed)),
            ("formats", .array(formats.map { f in
                .object([
                    ("format", .string(f.format)),
                    ("baseline_wire_version", f.baselineWireVersion.map { .number(String($0)) } ?? .null),
                    ("current_wire_version", f.currentWireVersion.map { .number(String($0)) } ?? .null),
                    ("added", .array(f.added.map { .string($0) })),
                    ("removed", .array(f.removed.map { .string($0) })),
                    ("withdrawn", .array(f.withdrawn.map { .string($0) })),
                    ("changed", .array(f.changed.map { c in .object([("id", .string(c.id)), ("what", .string(c.what)), ("detail", c.detail.map { .string($0) } ?? .null)]) })),
                    ("violations", .array(f.violations.map { .string($0) })),
                ])
            })),
        ])
    }
}
