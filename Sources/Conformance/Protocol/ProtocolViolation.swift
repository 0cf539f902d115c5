/// Why a line from the testee is not a valid protocol message. The runner reports it as a
/// `protocol_error` (with the first bytes of the line) and treats the stream as desynchronised.
public struct ProtocolViolation: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    /// The offending line, cut to 512 bytes.
    public let line: String

    public init(_ reason: String, line: String) {
        self.reason = reason
        self.line = line.utf8.count > 512 ? String(decoding: Array(line.utf8.prefix(512)), as: UTF8.self) + "…" : line
    }

    public var description: String { "\(reason): \(line)" }
}
