import Foundation

/// The §2.2 type of one op-input member, as the reader that took it knows it.
public enum InputKind: String, Sendable, CaseIterable {
    case uint64, int64, hex, text, bool, array, object
}

/// What one call of an `Input` reader saw: the member's path, the kind it was read as, the
/// value it was given, and (for fixed-size hex) the byte count it demands.
public struct InputRead: Sendable {
    public var path: String
    public var kind: InputKind
    public var length: Int?
    public var value: JSONValue
}

/// Records the op-input members the reference reads while it handles one input, so the facet
/// table (which members each op has, and of which §2.2 type) is derived from the code that reads
/// them rather than written down a second time by hand.
///
/// Off unless a caller installs one with `recording(_:)`: the readers then pay one task-local
/// read each. A recorder lives for one synchronous call on one thread; the lock only makes the
/// `Sendable` claim true if a reader ever runs concurrently inside that call.
public final class InputRecorder: @unchecked Sendable {
    @TaskLocal static var current: InputRecorder?

    private let lock = NSLock()
    private var _reads: [InputRead] = []
    private var _optional: Set<String> = []
    private var _nullable: Set<String> = []
    private var _maps: Set<String> = []

    public init() {}

    public var reads: [InputRead] { lock.withLock { _reads } }
    /// Paths read through `Input.optionalMember` (`name?` in an op table).
    public var optionalPaths: Set<String> { lock.withLock { _optional } }
    /// Paths read through `Input.nullableMember` (`… or null` in an op table).
    public var nullablePaths: Set<String> { lock.withLock { _nullable } }

    /// Paths of objects whose member names are data (a version vector's devices, a replica's
    /// keys), not names an op table lists: their members are one facet, written `{}`.
    public var mapPaths: Set<String> { lock.withLock { _maps } }

    /// Runs `body` with this recorder installed.
    public func recording<T>(_ body: () throws(WireError) -> T) -> Result<T, WireError> {
        InputRecorder.$current.withValue(self) { Result { () throws(WireError) -> T in try body() } }
    }

    static func note(_ path: String, _ kind: InputKind, _ value: JSONValue, length: Int? = nil) {
        guard let r = current else { return }
        r.lock.withLock { r._reads.append(InputRead(path: path, kind: kind, length: length, value: value)) }
    }

    static func noteOptional(_ path: String) {
        guard let r = current else { return }
        _ = r.lock.withLock { r._optional.insert(path) }
    }

    static func noteMap(_ path: String) {
        guard let r = current else { return }
        _ = r.lock.withLock { r._maps.insert(path) }
    }

    static func noteNullable(_ path: String) {
        guard let r = current else { return }
        _ = r.lock.withLock { r._nullable.insert(path) }
    }
}
