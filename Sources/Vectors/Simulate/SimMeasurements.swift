/// The measurement tables of the README's "Measuring convergence": the settle loop before and
/// after seed 002 §8's fix, what one differing row costs under each bucket rule, and what a
/// reconnect over-ships. Markdown, deterministic (the reference loop and fixed seeds only).
public enum SimMeasurements {
    /// `maxRows` bounds the store sizes (10,000 and 100,000, then 1,000,000 when allowed).
    public static func tables(rows maxRows: Int, seed: UInt64) -> String {
        var out: [String] = []
        out.append(loopTable(rows: min(maxRows, 10_000), seed: seed))
        out.append(namespaceTable(rows: min(maxRows, 10_000), seed: seed))
        out.append(fleetTable(rows: min(maxRows, 10_000), seed: seed))
        let sizes = [10_000, 100_000, 1_000_000].filter { $0 <= max(maxRows, 10_000) }
        out.append(oneRowTable(sizes: sizes, seed: seed))
        out.append(overShippingTable(sizes: sizes, seed: seed))
        return out.joined(separator: "\n\n")
    }

    static func ms(_ r: SimReport) -> String {
        r.converged ? SimReport.grouped(Int((r.convergeMillis ?? 0).rounded())) : "not within \(SimReport.grouped(Int(120_000))) ms"
    }

    static func kb(_ n: Int) -> String {
        n < 10_000 ? "\(SimReport.grouped(n)) B" : "\(SimReport.grouped((n + 500) / 1000)) kB"
    }

    /// Time to converge under four loops: the reference, each of seed 002 §8's two changes alone,
    /// and the loop before both.
    static func loopTable(rows: Int, seed: UInt64) -> String {
        var loops: [(String, SettleRules)] = [("400 ms + immediate re-advertisement (SPEC §12)", .reference)]
        var slow = SettleRules.reference
        slow.debounceMs = 3000
        loops.append(("3 s + immediate re-advertisement", slow))
        var fastOld = SettleRules.legacy
        fastOld.debounceMs = 400
        loops.append(("400 ms, re-advertisement through the debounce, only if applied", fastOld))
        loops.append(("3 s, re-advertisement through the debounce, only if applied (before)", .legacy))
        let scenarios: [(String, SimParameters.Scenario, (inout SimParameters) -> Void)] = [
            ("reconnect, 20 writes a side", .reconnect, { _ in }),
            ("reconnect, 3 namespaces", .reconnect, { $0.namespaces = 3 }),
            ("reconnect, 4 devices", .reconnect, { $0.devices = 4; $0.writes = 8 }),
            ("reaction one-way", .reaction, { _ in }),
            ("reaction one-way, a write every 5 s elsewhere", .reaction, { $0.backgroundEveryMillis = 5000 }),
        ]
        let base = SimBase(rows: rows, seed: seed)
        var lines = ["Time to converge after the reconnect, ms (rounds), \(SimReport.grouped(rows)) rows, 30+0–10 ms relay, seed \(seed):", "",
                     "| loop | " + scenarios.map(\.0).joined(separator: " | ") + " |",
                     "|---|" + String(repeating: "---:|", count: scenarios.count)]
        for (name, rules) in loops {
            var cells: [String] = []
            for (_, scenario, edit) in scenarios {
                var p = SimParameters()
                p.scenario = scenario
                p.rows = rows
                p.seed = seed
                p.rules = rules
                edit(&p)
                let r = Simulation.run(p, base: base)
                cells.append("\(ms(r)) (\(r.rounds))")
            }
            lines.append("| \(name) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// Rounds against the number of namespaces a reconnect diverges in (40 writes a side).
    static func namespaceTable(rows: Int, seed: UInt64) -> String {
        var lines = ["Reconnect diverging in k namespaces (40 writes a side, 2 devices, \(SimReport.grouped(rows)) rows), reference loop, seed \(seed):", "",
                     "| k | rounds | time to converge, ms | storm guard |", "|---:|---:|---:|---|"]
        let base = SimBase(rows: rows, seed: seed)
        for k in 1...SimRow.namespaces.count {
            var p = SimParameters()
            p.rows = rows
            p.seed = seed
            p.writes = 40
            p.namespaces = k
            let r = Simulation.run(p, base: base)
            let guardText = r.storms.isEmpty ? "—" : r.storms.map { "device \($0.device) backs off (\($0.namespaces.count) namespaces logged)" }.joined(separator: "; ")
            lines.append("| \(k) | \(r.rounds) | \(ms(r)) | \(guardText) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Two to eight devices: a reconnect (8 writes a side), and the storm scenario (a field hashed
    /// but not mergeable), which must trip the guard whatever the fleet size.
    static func fleetTable(rows: Int, seed: UInt64) -> String {
        var lines = ["Fleet size: reconnect after 8 writes a side, and the storm scenario (a field hashed but not mergeable, 40 s), \(SimReport.grouped(rows)) rows, reference loop, seed \(seed):", "",
                     "| devices | reconnect: time to converge, ms | rounds | relay bytes | storm guard | storm scenario: guard trips | first trip, ms | overlay still up on |",
                     "|---:|---:|---:|---:|---|---:|---:|---|"]
        let base = SimBase(rows: rows, seed: seed)
        for n in [2, 3, 4, 8] {
            var p = SimParameters()
            p.rows = rows
            p.seed = seed
            p.devices = n
            p.writes = 8
            let r = Simulation.run(p, base: base)
            p.scenario = .storm
            p.limitMillis = 40_000
            let s = Simulation.run(p, base: base)
            let first = s.storms.map(\.atMillis).min().map { SimReport.grouped(Int($0.rounded())) } ?? "never"
            let up = s.overlayUp.isEmpty ? "no device" : s.overlayUp.map { "device \($0)" }.joined(separator: ", ")
            lines.append("| \(n) | \(ms(r)) | \(r.rounds) | \(kb(r.relayBytes)) | \(r.storms.isEmpty ? "not tripped" : "tripped \(r.storms.count)×") | \(s.storms.count) | \(first) | \(up) |")
        }
        return lines.joined(separator: "\n")
    }

    static let rules: [BucketRule] = [.v6, .buckets(1024), .buckets(4096), .twoRound]

    /// One row edited on one side among n: what crosses the relay under each bucket rule.
    static func oneRowTable(sizes: [Int], seed: UInt64) -> String {
        var lines = ["One row differs among n message rows (2 devices; both sides pull): relay bytes and rows shipped, seed \(seed):", "",
                     "| n | bucket rule | requests | responses | digests | rows shipped | of them already held | time to converge, ms |",
                     "|---:|---|---:|---:|---:|---:|---:|---:|"]
        for n in sizes {
            let base = SimBase(rows: n, seed: seed)
            for rule in rules {
                var p = SimParameters()
                p.scenario = .oneRow
                p.rows = n
                p.seed = seed
                p.bucketRule = rule
                let r = Simulation.run(p, base: base)
                lines.append("| \(SimReport.grouped(n)) | \(rule) | \(kb(r.requests.bytes)) (\(r.requests.frames)) | \(kb(r.responses.bytes)) (\(r.responses.frames)) | \(kb(r.digests.bytes)) (\(r.digests.frames)) | \(SimReport.grouped(r.rowsShipped)) | \(SimReport.grouped(r.rowsIdentical)) | \(ms(r)) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A reconnect after 20 writes a side: rows shipped against rows that changed anything.
    static func overShippingTable(sizes: [Int], seed: UInt64) -> String {
        var lines = ["Reconnect after 20 writes on each side (2 devices, 1 namespace, v6 buckets), seed \(seed):", "",
                     "| n | rows per bucket | rows shipped | applied | already held (over-shipped) | stale | response bytes | request bytes | time to converge, ms |",
                     "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for n in sizes {
            var p = SimParameters()
            p.scenario = .reconnect
            p.rows = n
            p.seed = seed
            let r = Simulation.run(p, base: SimBase(rows: n, seed: seed))
            let g = n <= 256 ? 1 : (n + 255) / 256
            lines.append("| \(SimReport.grouped(n)) | \(g) | \(SimReport.grouped(r.rowsShipped)) | \(SimReport.grouped(r.rowsApplied)) | \(SimReport.grouped(r.rowsIdentical)) | \(SimReport.grouped(r.rowsStale)) | \(kb(r.responses.bytes)) | \(kb(r.requests.bytes)) | \(ms(r)) |")
        }
        return lines.joined(separator: "\n")
    }
}
