/// The formats and ops a loaded suite has, to name what a testee's hello advertises that the
/// suite does not know (a typo such as `statedigest` or `bucketise` would otherwise test nothing).
public struct SuiteScope: Sendable, Equatable {
    /// format → ops, as the vector files name them.
    public let ops: [String: Set<[UInt8]>]

    public init(suite: [SuiteCase]) {
        var ops: [String: Set<[UInt8]>] = [:]
        for c in suite { ops[c.format, default: []].insert(Array(c.op.utf8)) }
        self.ops = ops
    }

    public func has(format: String) -> Bool { ops[format] != nil }
    public func has(format: String, op: String) -> Bool { ops[format]?.contains(Array(op.utf8)) ?? false }

    /// Advertised formats the suite lacks (`name`, every op of it then tests nothing) and
    /// advertised ops of known formats that it lacks (`format/op`), in byte order.
    public func unknownCapabilities(_ hello: TesteeHello) -> [String] {
        var out: [String] = []
        for (format, list) in hello.capabilities {
            guard has(format: format) else { out.append(format); continue }
            for op in list where !has(format: format, op: op) { out.append("\(format)/\(op)") }
        }
        return out.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The warning line for `unknownCapabilities`, nil when there are none.
    public static func warning(_ unknown: [String]) -> String? {
        guard !unknown.isEmpty else { return nil }
        return "warning: the testee advertises \(unknown.count == 1 ? "a format or op" : "formats or ops") this suite does not know, so they test nothing: \(unknown.joined(separator: ", "))"
    }
}
