/// What one simulation run measured. Times are ms after the scenario's start (the reconnect).
public struct SimReport: Sendable {
    public struct Traffic: Sendable, Equatable {
        public var frames = 0
        public var bytes = 0
        mutating func add(_ n: Int) { frames += 1; bytes += n }
    }

    public struct Storm: Sendable, Equatable {
        public var atMillis: Double
        public var device: Int
        public var sibling: Int
        public var untilMillis: Double
        public var namespaces: [String]
    }

    public var parameters = ""
    public var stepper = "reference"
    public var error: String?
    public var converged = false
    public var convergeMillis: Double?
    public var quietMillis: Double?
    /// Counted from the scenario's start: rounds (scheduler steps that sent at least one
    /// request), frames, bytes and rows.
    public var rounds = 0
    public var steps = 0
    /// Frames sent (counted when sent, whether or not the relay delivered them).
    public var digests = Traffic()
    public var requests = Traffic()
    public var responses = Traffic()
    /// Frames lost because the sender or the receiver was offline.
    public var dropped = Traffic()
    public var rowsShipped = 0
    /// Rows that changed the receiver's store.
    public var rowsApplied = 0
    /// Rows the receiver already held exactly (same leaf): shipped for nothing.
    public var rowsIdentical = 0
    /// Rows the receiver held in a newer version, or had deleted.
    public var rowsStale = 0
    public var tombstonesShipped = 0
    public var storms: [Storm] = []
    public var overlayDismissed: [(device: Int, atMillis: Double)] = []
    public var overlayUp: [Int] = []
    public var notes: [String] = []
    /// With `trace`: one line per scheduler step and per frame sent.
    public var trace: [String] = []

    var start: UInt64 = 0
    var convergedAt: UInt64?
    var lastDelivery: UInt64?

    public var relayBytes: Int { digests.bytes + requests.bytes + responses.bytes }

    static func ms(_ v: Double?) -> String {
        guard let v else { return "—" }
        return String(Int((v).rounded()))
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// The report as text (deterministic: a function of the run alone).
    public var text: String {
        var lines: [String] = [parameters, "scheduler: \(stepper)"]
        if let error { lines.append("ERROR: \(error)") }
        lines.append(converged
            ? "converged: yes, \(Self.ms(convergeMillis)) ms after the start; last frame delivered at \(Self.ms(quietMillis)) ms"
            : "converged: NO within the time limit; last frame delivered at \(Self.ms(quietMillis)) ms")
        lines.append("rounds: \(rounds) (scheduler steps: \(steps))")
        if storms.isEmpty {
            lines.append("storm guard: not tripped")
        } else {
            lines.append("STORM GUARD TRIPPED \(storms.count) time(s):")
            for s in storms.prefix(8) {
                lines.append("  at \(Self.ms(s.atMillis)) ms device \(s.device) backed off from device \(s.sibling) until \(Self.ms(s.untilMillis)) ms; divergent: \(s.namespaces.joined(separator: ", "))")
            }
            if storms.count > 8 { lines.append("  … \(storms.count - 8) more") }
        }
        let dismissed = overlayDismissed.map { "device \($0.device) at \(Self.ms($0.atMillis)) ms" }
        lines.append("overlay: dismissed \(dismissed.isEmpty ? "nowhere" : dismissed.joined(separator: ", ")); still up on \(overlayUp.isEmpty ? "no device" : overlayUp.map { "device \($0)" }.joined(separator: ", "))")
        lines.append("relay           frames        bytes")
        for (name, t) in [("digests", digests), ("requests", requests), ("responses", responses)] {
            lines.append(name.padding(toLength: 14, withPad: " ", startingAt: 0) + Self.grouped(t.frames).leftPad(8) + Self.grouped(t.bytes).leftPad(13))
        }
        lines.append("total         " + Self.grouped(digests.frames + requests.frames + responses.frames).leftPad(8) + Self.grouped(relayBytes).leftPad(13))
        lines.append("lost offline  " + Self.grouped(dropped.frames).leftPad(8) + Self.grouped(dropped.bytes).leftPad(13))
        lines.append("rows shipped \(Self.grouped(rowsShipped)): applied \(Self.grouped(rowsApplied)), already held (over-shipped) \(Self.grouped(rowsIdentical)), stale \(Self.grouped(rowsStale)); tombstones \(Self.grouped(tombstonesShipped))")
        for n in notes { lines.append("note: \(n)") }
        return lines.joined(separator: "\n")
    }

    /// The report as vector data (for `--json`).
    public var tree: CBOR {
        func traffic(_ t: Traffic) -> CBOR { .object([("frames", .unsigned(UInt64(t.frames))), ("bytes", .unsigned(UInt64(t.bytes)))]) }
        func num(_ v: Double?) -> CBOR { v.map { CBOR.int(Int64($0.rounded())) } ?? .null }
        return .object([
            ("parameters", .text(parameters)),
            ("scheduler", .text(stepper)),
            ("error", error.map { CBOR.text($0) } ?? .null),
            ("converged", .bool(converged)),
            ("converge_ms", num(convergeMillis)),
            ("quiet_ms", num(quietMillis)),
            ("rounds", .unsigned(UInt64(rounds))),
            ("steps", .unsigned(UInt64(steps))),
            ("digests", traffic(digests)),
            ("requests", traffic(requests)),
            ("responses", traffic(responses)),
            ("lost_offline", traffic(dropped)),
            ("relay_bytes", .unsigned(UInt64(relayBytes))),
            ("rows_shipped", .unsigned(UInt64(rowsShipped))),
            ("rows_applied", .unsigned(UInt64(rowsApplied))),
            ("rows_over_shipped", .unsigned(UInt64(rowsIdentical))),
            ("rows_stale", .unsigned(UInt64(rowsStale))),
            ("tombstones_shipped", .unsigned(UInt64(tombstonesShipped))),
            ("storms", .array(storms.map { s in
                .object([("at_ms", num(s.atMillis)), ("device", .unsigned(UInt64(s.device))), ("sibling", .unsigned(UInt64(s.sibling))),
                         ("until_ms", num(s.untilMillis)), ("namespaces", .array(s.namespaces.map { .text($0) }))])
            })),
            ("overlay_up", .array(overlayUp.map { .unsigned(UInt64($0)) })),
            ("notes", .array(notes.map { .text($0) })),
        ])
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
