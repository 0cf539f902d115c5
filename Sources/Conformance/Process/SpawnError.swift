/// The testee command could not be started at all (not found, not executable).
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    public let command: [String]
    public let reason: String
    public init(command: [String], reason: String) {
        self.command = command
        self.reason = reason
    }

    public var description: String { "cannot start \(command.joined(separator: " ")): \(reason)" }
}
