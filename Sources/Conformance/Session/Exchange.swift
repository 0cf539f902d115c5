/// What came back for one case message. Anything but `.result` leaves the session dead: the
/// process group has been killed and reaped.
public enum Exchange: Sendable, Equatable {
    case result(TesteeResult)
    /// The testee exited or closed stdout with the case in flight.
    case crash(ExitStatus)
    case timeout(seconds: Double)
    case protocolError(ProtocolViolation)
}
