/// One member of one op's input, as the reference reads it (SPEC.md §2.2): its path (array
/// elements as `[]`), its type, its fixed byte count, whether it may be absent or null, and the
/// case and concrete path the battery edits to reach it.
public struct InputFacet: Sendable, Hashable {
    public var format: String
    public var op: String
    /// `state.siblings[].id`: names as the op table writes them, `[]` for any element.
    public var path: String
    public var kind: InputKind
    public var length: Int?
    public var optional: Bool
    public var nullable: Bool
    /// The smallest case that reads this member (by its input's encoded size, the first of equal
    /// ones), preferring one the reference answers with an output: the battery copies its input
    /// once per spelling, so a small base keeps the files small.
    public var baseCase: String
    /// The member inside that case's input, e.g. `[.key("state"), .key("siblings"), .index(0), .key("id")]`.
    public var steps: [InputStep]

    public static func == (a: InputFacet, b: InputFacet) -> Bool { a.format == b.format && a.op == b.op && a.path == b.path }
    public func hash(into h: inout Hasher) { h.combine(format); h.combine(op); h.combine(path) }

    /// The facet's id in flags, case ids and the exemption file: `<format>/<op>/<path>`.
    public var id: String { "\(format)/\(op)/\(path)" }

    /// The battery spellings this member gets (names only): the coverage gate's row.
    public var spellingNames: [String] { InputBattery.names(kind: kind, fixedLength: length != nil, nullable: nullable) }
}

/// One step of a path into an op input.
public enum InputStep: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// The facet table: every member of every op, found by running each committed case through its
/// handler with an `InputRecorder` installed. A read only counts when the value the reader was
/// given is the value at that path of the case's input: readers also run on wire data the op
/// decodes (a frame's JSON text, a snapshot), whose paths are not op-input members (R2.2-2).
public enum InputFacets {
    /// Ops whose input is not an op-input object in §2.2's sense (an HTTP scenario, §13.1).
    public static let skippedOps: Set<String> = ["scenario"]

    /// The cases the facet pass runs: every case but the battery's and the input-order cases (which
    /// only respell or drop members already found), so removing one never removes its facet.
    public static func sourceCases(_ cases: [VectorCase]) -> [VectorCase] {
        cases.filter { !skippedOps.contains($0.op) && !$0.id.contains("/\(InputCases.group)/") && !$0.id.contains("/\(InputOrderCases.group)/")
            && !$0.id.contains("/\(InputBeforeRulesCases.group)/") }
    }

    public static func table(_ handler: any FormatHandler, cases: [VectorCase]) -> [InputFacet] {
        var order: [String] = []
        var found: [String: InputFacet] = [:]
        var baseRank: [String: (output: Bool, size: Int, notABase: Bool)] = [:]
        // Cases flagged `not-a-base` last: they add facets only for members no other case reads,
        // and leave the order (and so the trimmed bases) of the others as committed.
        let source = sourceCases(cases)
        let othersFirst = source.filter { !$0.flags.contains(InputBeforeRulesCases.notABase) }
            + source.filter { $0.flags.contains(InputBeforeRulesCases.notABase) }
        for c in othersFirst {
            let input = c.input.json
            let size = CBORWriter.encode(c.input).count
            let recorder = InputRecorder()
            _ = recorder.recording { () throws(WireError) in try handler.run(op: c.op, input: input) }
            let isOutput: Bool = if case .output = c.expected { true } else { false }
            let notABase = c.flags.contains(InputBeforeRulesCases.notABase)
            var maps: Set<String> = []
            for m in recorder.mapPaths.sorted(by: { $0.count < $1.count }) {
                if let steps = resolve(m, in: input, allowAbsentLast: false) { maps.insert(normal(steps, maps: maps)) }
            }
            let optional = Set(recorder.optionalPaths.compactMap { resolve($0, in: input, allowAbsentLast: true).map { normal($0, maps: maps) } })
            let nullable = Set(recorder.nullablePaths.compactMap { resolve($0, in: input, allowAbsentLast: true).map { normal($0, maps: maps) } })
            for read in recorder.reads {
                guard let steps = resolve(read.path, in: input, allowAbsentLast: false), value(at: steps, in: input) == read.value else { continue }
                let path = normal(steps, maps: maps)
                let key = "\(c.op)\u{0}\(path)"
                if var f = found[key] {
                    // A `not-a-base` case leaves a member it shares with earlier cases as they
                    // found it (its length, optional, nullable and base), so a case added later
                    // moves no committed input-battery case.
                    if notABase { continue }
                    if f.length == nil { f.length = read.length }
                    if optional.contains(path) { f.optional = true }
                    if nullable.contains(path) { f.nullable = true }
                    // A case flagged `not-a-base` (SPEC §2.3) never takes a member's base from
                    // another, and gives it up to any other: it came after the battery cases of
                    // that base were committed.
                    if let r = baseRank[key],
                       r.notABase || (isOutput && !r.output) || (isOutput == r.output && size < r.size) {
                        f.baseCase = c.id
                        f.steps = steps
                        baseRank[key] = (isOutput, size, false)
                    }
                    found[key] = f
                } else {
                    order.append(key)
                    found[key] = InputFacet(format: handler.format, op: c.op, path: path, kind: read.kind, length: read.length,
                                            optional: optional.contains(path), nullable: nullable.contains(path), baseCase: c.id, steps: steps)
                    baseRank[key] = (isOutput, size, notABase)
                }
            }
        }
        return order.compactMap { found[$0] }
    }

    /// `a.b[0].c` as steps, matched against the input so that a key holding `.` or `[` is one key.
    static func resolve(_ path: String, in input: JSONValue, allowAbsentLast: Bool) -> [InputStep]? {
        var steps: [InputStep] = []
        var rest = Substring(path)
        var node: JSONValue? = input
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      let items = node?.arrayValue, i < items.count else { return nil }
                steps.append(.index(i))
                node = items[i]
                rest = rest[rest.index(after: close)...]
                if rest.first == "." { rest = rest.dropFirst() }
                continue
            }
            guard let members = node?.objectValue else { return nil }
            // The longest member name the path continues with.
            let match = members.map(\.0).filter { name in
                rest.hasPrefix(name) && (rest.count == name.count || [".", "["].contains(rest[rest.index(rest.startIndex, offsetBy: name.count)]))
            }.max { $0.count < $1.count }
            if let name = match {
                steps.append(.key(name))
                node = node?[name]
                rest = rest.dropFirst(name.count)
                if rest.first == "." { rest = rest.dropFirst() }
            } else if allowAbsentLast, !rest.contains("."), !rest.contains("[") {
                steps.append(.key(String(rest)))
                return steps
            } else {
                return nil
            }
        }
        return steps
    }

    static func value(at steps: [InputStep], in input: JSONValue) -> JSONValue? {
        var node: JSONValue? = input
        for s in steps {
            switch s {
            case .key(let k): node = node?[k]
            case .index(let i): node = node?.arrayValue.flatMap { i < $0.count ? $0[i] : nil }
            }
        }
        return node
    }

    /// Steps written as a facet path: names joined by `.`, elements as `[]`, and a member of an
    /// object in `maps` (whose names are data) as `{}`.
    public static func normal(_ steps: [InputStep], maps: Set<String> = []) -> String {
        var s = ""
        for step in steps {
            switch step {
            case .key(let k):
                let name = maps.contains(s) ? "{}" : k
                s += s.isEmpty ? name : ".\(name)"
            case .index: s += "[]"
            }
        }
        return s
    }

    /// Steps written for a case id: elements by their index, every step joined by `.`.
    static func concrete(_ steps: [InputStep]) -> String {
        steps.map { step in
            switch step {
            case .key(let k): return k
            case .index(let i): return String(i)
            }
        }.joined(separator: ".")
    }
}
