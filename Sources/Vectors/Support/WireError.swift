/// The one error type of the `Vectors` module: every decoder, encoder precondition and generator
/// check throws it.
///
/// `code` is the suite's error vocabulary (SPEC.md, "Error vocabulary"): the same strings appear in
/// negative vectors (`expected.error`) and in the runner protocol's `rejected` results, so they are
/// stable and never renamed. Errors compare by code; `reason`, `offset` and `field` say what and
/// where for a person reading a failure.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    public let reason: String
    /// Byte offset into the input where the problem was found, when the input is bytes.
    public let offset: Int?
    /// The field (or JSON path) concerned, when the input is structured.
    public let field: String?

    public init(_ code: ErrorCode, _ reason: String, offset: Int? = nil, field: String? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
        self.field = field
    }

    public static func == (a: WireError, b: WireError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var s = "\(code.rawValue): \(reason)"
        if let offset { s += " (at byte \(offset))" }
        if let field { s += " (field \(field))" }
        return s
    }
}
