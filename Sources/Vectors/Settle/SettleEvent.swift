/// One input to the scheduler (SPEC.md §12.3), at a time in ms.
public struct SettleEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A local write (markStateDirty); `digest` is the device's digest after it.
        case localWrite(digest: StateDigest)
        /// This device's relay connection came up (again).
        case connected
        /// A sibling's `state_digest` advertisement: its bytes as they arrived (wire data).
        case digestReceived(from: SiblingID, digest: [UInt8])
        /// A sibling's `reconcile_req`, with what §5.4 `respond` found to send.
        case requestReceived(from: SiblingID, namespace: Namespace, rows: UInt64, tombstones: UInt64)
        /// A sibling's `reconcile_resp` was merged: `applied` changes, then the device's digest.
        case responseApplied(from: SiblingID, namespace: Namespace, applied: UInt64, digest: StateDigest)
        /// A timer the scheduler armed went off (any deadline at or before `at` is due anyway).
        case tick

        public var name: String {
            switch self {
            case .localWrite: return "local_write"
            case .connected: return "connected"
            case .digestReceived: return "digest_received"
            case .requestReceived: return "request_received"
            case .responseApplied: return "response_applied"
            case .tick: return "tick"
            }
        }

        /// The sibling an event names, if any.
        public var sibling: SiblingID? {
            switch self {
            case .digestReceived(let f, _), .requestReceived(let f, _, _, _), .responseApplied(let f, _, _, _): return f
            case .localWrite, .connected, .tick: return nil
            }
        }
    }

    public static let kinds = ["local_write", "connected", "digest_received", "request_received", "response_applied", "tick"]

    public var at: UInt64
    public var kind: Kind

    public init(at: UInt64, _ kind: Kind) {
        self.at = at
        self.kind = kind
    }

    /// The event as op input (members in SPEC.md §12.3 order).
    public var tree: CBOR {
        var m: [(String, CBOR)] = [("at", .unsigned(at)), ("kind", .text(kind.name))]
        switch kind {
        case .localWrite(let d):
            m.append(("digest", .bytes(d.encoded())))
        case .connected, .tick:
            break
        case .digestReceived(let f, let d):
            m.append(("from", .bytes(f.bytes)))
            m.append(("digest", .bytes(d)))
        case .requestReceived(let f, let ns, let rows, let tombs):
            m.append(("from", .bytes(f.bytes)))
            m.append(("namespace", .text(ns.rawValue)))
            m.append(("rows", .unsigned(rows)))
            m.append(("tombstones", .unsigned(tombs)))
        case .responseApplied(let f, let ns, let applied, let d):
            m.append(("from", .bytes(f.bytes)))
            m.append(("namespace", .text(ns.rawValue)))
            m.append(("applied", .unsigned(applied)))
            m.append(("digest", .bytes(d.encoded())))
        }
        return .object(m)
    }
}
