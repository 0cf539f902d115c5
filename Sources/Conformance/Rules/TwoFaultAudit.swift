import Foundation
import Primitives
import Vectors

/// The self-audit of the hand-written two-fault cases (issue 23, item 4): a case flagged
/// `two-faults` must hold two faults, each rejected alone, and its answer must be decided by the
/// earlier one. The derived cases (facet orders, input order, input before rules) are audited as
/// they are generated; this audits the rest, mechanically, against the reference.
///
/// A hand-written case does not say where its faults are, so the audit finds them: it compares
/// the case with the accepted case of the same op it differs from in fewest places (`Difference`
/// finds the places: a member, an array element or length, a run of differing bytes, a byte
/// string's length). It then looks for a split of those places into two groups, A and B, such that
///
/// - the case with only A's places (B's put back as in the accepted case) is refused, or answers
///   otherwise than the accepted case: A alone is a fault;
/// - the same for B alone;
/// - exactly one of the two answers is the case's own expected answer: the case is decided by
///   that fault, and the other fault alone answers otherwise, so a testee that checks them the
///   other way round fails it.
///
/// A case with no such split fails the audit: its second "fault" is none, or both faults give the
/// same answer and so cannot tell an order, or its faults cannot be put back one at a time (both
/// in one value; inside a seal, where one changed byte of plaintext changes every byte). Such a
/// case is audited by its generator's `TwoFaultModel` instead, when it has one (a sealed case's
/// model by opening the committed seal, `SealedModel`). The cases that fail today are listed in
/// `coverage/two-faults-pending.tsv`, each with what the audit found: the report counts them as
/// pending, never as audited, and a case that fails and is not listed (a new one, or one that
/// stopped passing) fails the gate.
public struct TwoFaultAudit: Sendable {
    public struct Finding: Sendable {
        public var id: String
        public var problem: String
    }

    public struct FormatLine: Sendable {
        public var format: String
        public var cases: Int
        public var audited: Int
        /// Of `audited`, the cases audited by their generator's fault model (`TwoFaultModel`).
        public var byModel: Int
        public var pending: Int
    }

    public var lines: [FormatLine]
    public var findings: [Finding]
    public var problems: [String]
    public var isClean: Bool { findings.isEmpty && problems.isEmpty }

    public static let pendingFile = "two-faults-pending.tsv"

    /// The flag of an accepted case written as a two-fault case's neighbour (its faults taken
    /// out), followed by that case's id: the audit tries it as a base first.
    public static let neighbourFlag = "neighbour-of:"

    /// At most this many places are split exhaustively (2^(n-1) - 1 splits); past it, places are
    /// merged with their neighbours under a shorter path first.
    static let maxPlaces = 8

    /// Whether a case is one of the hand-written two-fault cases the audit covers.
    public static func isHandWritten(_ c: VectorCase) -> Bool {
        guard c.flags.contains("two-faults") else { return false }
        if c.flags.contains(where: { $0.hasPrefix("facet:order:") || $0.hasPrefix("facet:input-before-rules:") }) { return false }
        return !c.id.contains("/\(InputOrderCases.group)/") && !c.id.contains("/\(InputBeforeRulesCases.group)/")
    }

    /// `pending` maps a case id to what the audit found when it was listed.
    public init(files: [VectorFile], pending exempt: [String: String]) {
        var lines: [FormatLine] = []
        var findings: [Finding] = []
        var used = Set<String>()
        var problems: [String] = []
        let neighbours = Self.neighbours(files, problems: &problems)
        for file in files {
            guard let handler = Reference.handler(for: file.format) else { continue }
            let source = InputFacets.sourceCases(file.cases)
            var accepted: [String: [VectorCase]] = [:]
            for c in source { if case .output = c.expected { accepted[c.op, default: []].append(c) } }
            var line = FormatLine(format: file.format, cases: 0, audited: 0, byModel: 0, pending: 0)
            let models = Self.models(of: file, problems: &problems)
            for c in source where Self.isHandWritten(c) {
                line.cases += 1
                let problem: String?
                if let m = models[c.id] {
                    problem = m.audit(c, run: { op, input in Result { () throws(WireError) -> JSONValue in try handler.run(op: op, input: input.json) } })
                        .map { "by its fault model: \($0)" }
                    if problem == nil { line.byModel += 1 }
                } else {
                    problem = Self.audit(c, accepted: accepted[c.op] ?? [], neighbours: neighbours[c.id] ?? [], handler: handler)
                }
                if let problem {
                    if exempt[c.id] != nil {
                        line.pending += 1
                        used.insert(c.id)
                    } else {
                        findings.append(Finding(id: c.id, problem: problem))
                    }
                } else {
                    line.audited += 1
                    if exempt[c.id] != nil { findings.append(Finding(id: c.id, problem: "passes the audit now: remove it from \(Self.pendingFile)")) }
                }
            }
            lines.append(line)
        }
        let ids = Set(files.flatMap { $0.cases.map(\.id) })
        problems += exempt.keys.sorted().filter { !used.contains($0) && !ids.contains($0) }
            .map { "\(Self.pendingFile): \($0) names no case" }
        self.problems = problems
        self.lines = lines
        self.findings = findings
    }

    /// The generator's fault models of `file`'s cases, by case id. A model must name a
    /// hand-written two-fault case of the file: one naming anything else is audited nowhere.
    static func models(of file: VectorFile, problems: inout [String]) -> [String: TwoFaultModel] {
        let models: [TwoFaultModel]
        do { models = try TwoFaultModels.of(format: file.format, cases: file.cases) } catch {
            problems.append("\(file.format): its two-fault models do not build: \(error)")
            return [:]
        }
        let handWritten = Set(file.cases.filter(Self.isHandWritten).map(\.id))
        var out: [String: TwoFaultModel] = [:]
        for m in models {
            guard handWritten.contains(m.id) else {
                problems.append("two-fault model \(m.id) names no hand-written two-fault case of \(file.format)")
                continue
            }
            out[m.id] = m
        }
        return out
    }

    /// The accepted neighbours named for each two-fault case, from both places a generator names
    /// one (a `neighbour-of:<id>` flag on the neighbour, or `TwoFaultNeighbours` for a case whose
    /// flags cannot change), checked once: a name must be a hand-written two-fault case of the
    /// neighbour's own file and op, and the neighbour an accepted case. A stale name would leave
    /// its case audited against small unrelated cases without anyone noticing.
    static func neighbours(_ files: [VectorFile], problems: inout [String]) -> [String: Set<String>] {
        var named: [(two: String, neighbour: String, by: String)] = []
        for file in files {
            for c in file.cases {
                for flag in c.flags where flag.hasPrefix(neighbourFlag) {
                    named.append((String(flag.dropFirst(neighbourFlag.count)), c.id, "\(c.id): \(flag)"))
                }
            }
        }
        let formats = Set(files.map(\.format))
        for (two, neighbour) in TwoFaultNeighbours.all.sorted(by: { $0.key < $1.key }) where formats.contains(String(two.prefix { $0 != "/" })) {
            named.append((two, neighbour, "TwoFaultNeighbours: \(two) → \(neighbour)"))
        }
        let byID = Dictionary(files.flatMap(\.cases).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [String: Set<String>] = [:]
        for n in named {
            guard let target = byID[n.two], Self.isHandWritten(target) else {
                problems.append("\(n.by) names no hand-written two-fault case")
                continue
            }
            guard let base = byID[n.neighbour], base.op == target.op, case .output = base.expected else {
                problems.append("\(n.by): the neighbour must be an accepted case of \(target.op)")
                continue
            }
            out[n.two, default: []].insert(n.neighbour)
        }
        return out
    }

    /// `TWO_FAULT_AUDIT_DEBUG=<id>,<id>,…` prints every split tried for those cases.
    static let debug = Set((ProcessInfo.processInfo.environment["TWO_FAULT_AUDIT_DEBUG"] ?? "").split(separator: ",").map(String.init))

    static func describe(_ r: Result<JSONValue, WireError>) -> String {
        switch r {
        case .success(let v): return "output " + String(v.compact.prefix(80))
        case .failure(let e): return "error \(e.code.rawValue)"
        }
    }

    /// How many of the nearest accepted cases the audit compares a case with.
    static let nearest = 3

    /// nil when the case passes; else what is wrong.
    static func audit(_ c: VectorCase, accepted: [VectorCase], neighbours: Set<String>, handler: any FormatHandler) -> String? {
        guard !accepted.isEmpty else { return "no accepted case of \(c.op) to compare it with" }
        // The accepted cases it differs from in fewest places (two at least), nearest first,
        // after the accepted neighbours its generator names for it (flagged `neighbour-of:<id>`, or
        // listed in TwoFaultNeighbours: the case with its two faults taken out), which small
        // cases such as an empty namespace would otherwise outrank by differing in fewer, coarser
        // places.
        let isNamed = { (a: VectorCase) in neighbours.contains(a.id) }
        // Places found byte by byte first; then, inside CBOR held as hex, item by item in the
        // written order (`LaxCBORTree`), where a fault is a member rather than a run of bytes.
        func bases(trees: Bool) -> [(base: VectorCase, places: [Difference.Place])] {
            let candidates = accepted.compactMap { a -> (base: VectorCase, places: [Difference.Place])? in
                let places = Difference.places(c.input, a.input, trees: trees)
                return places.count >= 2 ? (a, places) : nil
            }
            return candidates.filter { isNamed($0.base) } + candidates.filter { !isNamed($0.base) }.sorted { $0.places.count < $1.places.count }.prefix(nearest)
        }
        let byBytes = bases(trees: false)
        guard let first = byBytes.first else { return "differs from every accepted case of \(c.op) in one place at most: its faults cannot be told apart" }
        let run = { (input: CBOR) -> Result<JSONValue, WireError> in
            Result { () throws(WireError) -> JSONValue in try handler.run(op: c.op, input: input.json) }
        }
        for trees in [false, true] {
          for (base, found) in trees ? bases(trees: true) : byBytes {
            let baseAnswer = run(base.input)
            func differs(_ r: Result<JSONValue, WireError>) -> Bool {
                switch (r, baseAnswer) {
                case (.failure(let x), .failure(let y)): return x.code != y.code
                case (.success(let x), .success(let y)): return x != y
                default: return true
                }
            }
            // The places as found, then merged under their parents, level by level: the faults
            // may be two bytes of one member, or two members whose every byte differs.
            for places in Difference.levels(found, limit: maxPlaces) {
                // Splits: group A always holds place 0, so each split is tried once.
                let n = places.count
                for mask in 1..<(1 << (n - 1)) {
                    let inA = (0..<n).map { $0 == 0 || mask & (1 << ($0 - 1)) == 0 }
                    let aPaths = places.indices.filter { inA[$0] }.flatMap { places[$0] }
                    let bPaths = places.indices.filter { !inA[$0] }.flatMap { places[$0] }
                    let aAlone = run(Difference.revert(c.input, to: base.input, at: Set(bPaths), trees: trees))
                    let bAlone = run(Difference.revert(c.input, to: base.input, at: Set(aPaths), trees: trees))
                    if debug.contains(c.id) {
                        print("  \(c.id) base \(base.id) \(describe(baseAnswer)); A \(places.indices.filter { inA[$0] }.map { "\(places[$0])" }) alone: \(describe(aAlone)); B alone: \(describe(bAlone))")
                    }
                    guard differs(aAlone), differs(bAlone) else { continue }
                    if c.expected.isMet(by: aAlone) != c.expected.isMet(by: bAlone) { return nil }
                }
            }
          }
        }
        return "no split of its \(first.places.count) differences from \(first.base.id) (or the next nearest accepted cases) into two faults, each refused alone, one of them giving the case's answer and the other not"
    }
}

/// Where two op inputs differ, as places that can be put back one at a time.
enum Difference {
    enum Step: Hashable, Sendable {
        case key(CBOR)
        /// The `n`th repeat (n ≥ 1) of a key the map already has: matched to nothing, so putting
        /// it back removes it.
        case repeatedKey(CBOR, Int)
        case index(Int)
        /// An array's element count.
        case count
        /// Bytes `lo..<hi` of a byte string, compared position by position.
        case bytes(Int, Int)
        /// A byte string's length (its tail past the shorter one).
        case length
        /// Into the JSON document a string holds.
        case json
        /// Into the CBOR item a hex string holds, read as written (`LaxCBORTree`).
        case cbor
    }

    typealias Path = [Step]
    /// One place: the paths put back together (one path, or several merged by `levels`).
    typealias Place = [Path]

    /// `trees`: hex that holds one CBOR item is compared item by item (`LaxCBORTree`) rather
    /// than byte by byte.
    static func places(_ c: CBOR, _ a: CBOR, trees: Bool = false) -> [Place] {
        var out: [Path] = []
        _ = walk(c, a, [], revert: [], trees: trees, found: &out)
        return out.map { [$0] }
    }

    static func revert(_ c: CBOR, to a: CBOR, at paths: Set<Path>, trees: Bool = false) -> CBOR {
        var ignored: [Path] = []
        return walk(c, a, [], revert: paths, trees: trees, found: &ignored) ?? c
    }

    /// The places, then the places merged under a common parent path (the deepest first), level
    /// by level while two or more remain; levels of more than `limit` places are skipped (their
    /// splits are too many to try).
    static func levels(_ places: [Place], limit: Int) -> [[Place]] {
        var out: [[Place]] = []
        // Each place with the path it is merged under so far (its own, to begin with).
        var level = places.map { (anchor: $0.first ?? [], place: $0) }
        while level.count >= 2 {
            if level.count <= limit { out.append(level.map(\.place)) }
            let depth = level.map(\.anchor.count).max() ?? 0
            guard depth > 0 else { break }
            var merged: [(anchor: Path, place: Place)] = []
            for p in level {
                let anchor = p.anchor.count == depth ? Array(p.anchor.dropLast()) : p.anchor
                if let i = merged.firstIndex(where: { $0.anchor == anchor }) { merged[i].place += p.place } else { merged.append((anchor, p.place)) }
            }
            level = merged
        }
        return out
    }

    /// Walks `c` against `a`, collecting the places they differ; returns `c` with the places in
    /// `revert` taken from `a` (nil: absent).
    private static func walk(_ c: CBOR?, _ a: CBOR?, _ path: Path, revert: Set<Path>, trees: Bool, found: inout [Path]) -> CBOR? {
        if c == a { return c }
        guard let c, let a else {
            found.append(path)
            return revert.contains(path) ? a : c
        }
        switch (c, a) {
        case (.map(let ce), .map(let ae)):
            var entries: [CBORMapEntry] = []
            var seen: [CBOR: Int] = [:]
            for e in ce {
                let n = seen[e.key, default: 0]
                seen[e.key] = n + 1
                let other = n == 0 ? ae.first { $0.key == e.key }?.value : nil
                let step: Step = n == 0 ? .key(e.key) : .repeatedKey(e.key, n)
                if let v = walk(e.value, other, path + [step], revert: revert, trees: trees, found: &found) { entries.append(.init(key: e.key, value: v)) }
            }
            for e in ae where !ce.contains(where: { $0.key == e.key }) {
                if let v = walk(nil, e.value, path + [.key(e.key)], revert: revert, trees: trees, found: &found) { entries.append(.init(key: e.key, value: v)) }
            }
            return .map(entries)
        case (.array(let cx), .array(let ax)):
            var items: [CBOR] = []
            for i in 0..<min(cx.count, ax.count) {
                items.append(walk(cx[i], ax[i], path + [.index(i)], revert: revert, trees: trees, found: &found) ?? cx[i])
            }
            if cx.count != ax.count {
                found.append(path + [.count])
                items += revert.contains(path + [.count]) ? Array(ax.dropFirst(items.count)) : Array(cx.dropFirst(items.count))
                if revert.contains(path + [.count]) { items = Array(items.prefix(ax.count)) }
            }
            return .array(items)
        // Byte by byte when either is longer than one byte: a one-byte value against a long one is
        // its first byte and its length (a version byte and a truncation), two places.
        case (.bytes(let x), .bytes(let y)) where !x.isEmpty && !y.isEmpty && x.count + y.count > 2:
            var out = x
            var i = 0
            let n = min(x.count, y.count)
            while i < n {
                guard x[i] != y[i] else { i += 1; continue }
                var j = i
                while j < n && x[j] != y[j] { j += 1 }
                found.append(path + [.bytes(i, j)])
                if revert.contains(path + [.bytes(i, j)]) { out.replaceSubrange(i..<j, with: y[i..<j]) }
                i = j
            }
            if x.count != y.count {
                found.append(path + [.length])
                if revert.contains(path + [.length]) { out = x.count > y.count ? Array(out.prefix(y.count)) : out + y[x.count...] }
            }
            return .bytes(out)
        case (.tagged(let t, let x), .tagged(let u, let y)) where t == u && (t == LaxCBORTree.mapTag || t == LaxCBORTree.textTag):
            // A lax tree's map (its flat entries) or text (its bytes), compared inside.
            return walk(x, y, path, revert: revert, trees: trees, found: &found).map { .tagged(t, $0) }
        case (.text(let x), .text(let y)):
            // Hex (a vector file's bytes) is compared byte by byte; a JSON document in a string
            // (a reconcile frame) member by member, when it reads back to exactly its own text.
            if trees, let bx = hex(x), let by = hex(y), let tx = LaxCBORTree.tree(bx), let ty = LaxCBORTree.tree(by),
               let out = walk(tx, ty, path + [.cbor], revert: revert, trees: trees, found: &found) {
                return .text(Hex.encode(LaxCBORTree.bytes(out)))
            }
            if let bx = hex(x), let by = hex(y), !bx.isEmpty, !by.isEmpty, bx.count + by.count > 2,
               case .bytes(let out)? = walk(.bytes(bx), .bytes(by), path, revert: revert, trees: trees, found: &found) {
                return .text(Hex.encode(out))
            }
            if let jx = document(x), let jy = document(y),
               let out = walk(jx, jy, path + [.json], revert: revert, trees: trees, found: &found) {
                return .text(Self.json(out).compact)
            }
            found.append(path)
            return revert.contains(path) ? a : c
        default:
            found.append(path)
            return revert.contains(path) ? a : c
        }
    }

    private static func hex(_ s: String) -> [UInt8]? {
        guard s.utf8.count % 2 == 0, let b = Hex.decode(s), Hex.encode(b) == s else { return nil }
        return b
    }

    /// A JSON object or array in a string, as a tree (numbers kept as their literals, under a
    /// private tag), when writing the tree back gives the same text.
    private static func document(_ s: String) -> CBOR? {
        guard s.hasPrefix("{") || s.hasPrefix("["), let v = try? JSONValue.parse(s), v.compact == s else { return nil }
        return tree(v)
    }

    private static let numberTag: UInt64 = 0x6e75_6d62  // "numb": a JSON number's literal

    private static func tree(_ v: JSONValue) -> CBOR {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .tagged(numberTag, .text(n))
        case .string(let s): return .text(s)
        case .array(let items): return .array(items.map(tree))
        case .object(let members): return .map(members.map { (CBOR.text($0.0), tree($0.1)) })
        }
    }

    private static func json(_ t: CBOR) -> JSONValue {
        switch t {
        case .bool(let b): return .bool(b)
        case .tagged(numberTag, .text(let n)): return .number(n)
        case .text(let s): return .string(s)
        case .array(let items): return .array(items.map(json))
        case .map(let entries): return .object(entries.map { e in
            if case .text(let k) = e.key { return (k, json(e.value)) }
            return (CBORDiagnostic.render(e.key), json(e.value))
        })
        default: return .null
        }
    }
}
