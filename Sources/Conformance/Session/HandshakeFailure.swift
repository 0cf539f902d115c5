/// The testee could not be brought to the point of answering cases (exit 3 on the first spawn;
/// a restart attempt otherwise).
public enum HandshakeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case spawn(SpawnError)
    /// The process ended (or closed stdout) before its hello.
    case exited(ExitStatus, stderrTail: String)
    case timeout(seconds: Double, stderrTail: String)
    case protocolError(ProtocolViolation, stderrTail: String)
    /// The testee chose a version the runner did not offer.
    case versionMismatch(offered: [Int], chosen: Int, testee: String)

    public var description: String {
        switch self {
        case .spawn(let e): return e.description
        case .exited(let s, let tail): return "the testee \(s) before answering hello" + HandshakeFailure.tail(tail)
        case .timeout(let t, let tail): return "no hello from the testee within \(Report.seconds(t))" + HandshakeFailure.tail(tail)
        case .protocolError(let v, let tail): return "invalid hello: \(v)" + HandshakeFailure.tail(tail)
        case .versionMismatch(let offered, let chosen, let testee):
            return "\(testee) answered protocol_version \(chosen); this runner offers \(offered.map(String.init).joined(separator: ", "))"
        }
    }

    static func tail(_ t: String) -> String { t.isEmpty ? "" : "\n--- testee stderr (tail) ---\n\(t)" }
}
