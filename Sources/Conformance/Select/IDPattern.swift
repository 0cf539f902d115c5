/// A case-id glob: `*` matches any run of characters (slashes included); everything else is
/// literal. `state_digest/leaf/*` selects every leaf case; `*/typical` every typical one.
public struct IDPattern: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    private let parts: [Substring]

    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: "*", omittingEmptySubsequences: false)
    }

    public var description: String { text }
    public var isLiteral: Bool { parts.count == 1 }

    public func matches(_ id: String) -> Bool {
        if parts.count == 1 { return id == text }
        var rest = id[...]
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        let last = parts[parts.count - 1]
        for p in parts.dropFirst().dropLast() where !p.isEmpty {
            guard let r = rest.range(of: p) else { return false }
            rest = rest[r.upperBound...]
        }
        return rest.count >= last.count && rest.hasSuffix(last)
    }
}
