import Foundation
import Primitives
import Vectors

/// The self-audit of the hand-written edge cases (issue 23, item 4): a case flagged `edge` sits at
/// a boundary, so moving the value at the boundary one step must change its answer. A case does
/// not say which value that is, so the audit moves every integer of its input by one, one at a
/// time (up and down, within the type's range), and asks the reference: the case is audited when
/// some one-step move changes the answer. A case none of whose integers decides it is reported
/// (its edge may be a length or a byte, which this audit does not move: it says so, and counts
/// the case as not measured rather than as audited); one whose integers all move freely but that
/// has some is a finding when listed nowhere.
public struct EdgeAudit: Sendable {
    public struct FormatLine: Sendable {
        public var format: String
        public var cases: Int
        /// A one-step move of an integer changes the answer.
        public var audited: Int
        /// No integer in the input: the edge is a length, a byte or a set, not moved here.
        public var noInteger: Int
        /// Integers, none of which changes the answer by one step.
        public var undecided: [String]
    }

    public var lines: [FormatLine]
    /// Undecided cases not listed in `pendingFile`, and listed ones that are decided now or name
    /// no case.
    public var problems: [String]
    public var isClean: Bool { problems.isEmpty }

    /// `coverage/edges-pending.tsv`: `<case id><TAB>why no one-step move of an integer decides it`.
    public static let pendingFile = "edges-pending.tsv"

    public static func isHandWrittenEdge(_ c: VectorCase) -> Bool {
        c.flags.contains("edge") && !c.flags.contains { $0.hasPrefix("facet:") }
    }

    public init(files: [VectorFile], pending: [String: String] = [:]) {
        var lines: [FormatLine] = []
        var problems: [String] = []
        var seen = Set<String>()
        for file in files {
            guard let handler = Reference.handler(for: file.format) else { continue }
            var line = FormatLine(format: file.format, cases: 0, audited: 0, noInteger: 0, undecided: [])
            for c in file.cases where Self.isHandWrittenEdge(c) {
                line.cases += 1
                let moves = Self.moves(c.input)
                if moves.isEmpty { line.noInteger += 1; continue }
                let decided = moves.contains { moved in
                    !c.expected.isMet(by: Result { () throws(WireError) -> JSONValue in try handler.run(op: c.op, input: moved.json) })
                }
                seen.insert(c.id)
                if decided {
                    line.audited += 1
                    if pending[c.id] != nil { problems.append("\(c.id): a one-step move decides it now: remove it from \(Self.pendingFile)") }
                } else {
                    line.undecided.append(c.id)
                    if pending[c.id] == nil { problems.append("\(c.id): no one-step move of an integer in its input changes its answer, and \(Self.pendingFile) gives no reason") }
                }
            }
            if line.cases > 0 { lines.append(line) }
        }
        let formats = Set(files.map(\.format))
        for id in pending.keys.sorted() where formats.contains(String(id.prefix { $0 != "/" })) && !seen.contains(id) {
            problems.append("\(Self.pendingFile): \(id) names no hand-written edge case")
        }
        self.lines = lines
        self.problems = problems
    }

    /// Every input with one integer moved by one step. Vector inputs hold JSON numbers as their
    /// literals; an integer literal moves by decimal arithmetic, so 2^64 - 1 moves to 2^64.
    static func moves(_ v: CBOR) -> [CBOR] {
        switch v {
        case .tagged(CBOR.embeddedJSONTag, .bytes(let raw)):
            guard let literal = String(validating: raw, as: UTF8.self) else { return [] }
            return Self.steps(literal).map { CBOR.jsonNumber($0) }
        case .unsigned(let n):
            var out: [CBOR] = n == 0 ? [.negative(0)] : [.unsigned(n - 1)]
            if n < .max { out.append(.unsigned(n + 1)) }
            return out
        case .negative(let n):
            var out: [CBOR] = n == 0 ? [.unsigned(0)] : [.negative(n - 1)]
            if n < .max { out.append(.negative(n + 1)) }
            return out
        case .array(let items):
            return items.indices.flatMap { i in moves(items[i]).map { m in var x = items; x[i] = m; return CBOR.array(x) } }
        case .map(let entries):
            return entries.indices.flatMap { i in moves(entries[i].value).map { m in var x = entries; x[i].value = m; return CBOR.map(x) } }
        default:
            return []
        }
    }

    /// The integer literals one below and one above `literal` (canonical: no sign but `-`, no
    /// leading zero, no fraction or exponent); none for any other literal.
    static func steps(_ literal: String) -> [String] {
        let negative = literal.hasPrefix("-")
        let digits = Array(negative ? literal.dropFirst() : Substring(literal))
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), digits == ["0"] || digits[0] != "0",
              !(negative && digits == ["0"]) else { return [] }
        let magnitude = String(digits)
        if magnitude == "0" { return ["-1", "1"] }
        let up = increment(magnitude), down = decrement(magnitude)
        // -n - 1 and -n + 1; n - 1 and n + 1.
        return negative ? ["-" + up, down == "0" ? "0" : "-" + down] : [down, up]
    }

    static func increment(_ d: String) -> String {
        var x = Array(d.utf8)
        var i = x.count - 1
        while i >= 0 {
            if x[i] == 0x39 { x[i] = 0x30; i -= 1 } else { x[i] += 1; return String(decoding: x, as: UTF8.self) }
        }
        return "1" + String(decoding: x, as: UTF8.self)
    }

    static func decrement(_ d: String) -> String {
        var x = Array(d.utf8)
        var i = x.count - 1
        while x[i] == 0x30 { x[i] = 0x39; i -= 1 }
        x[i] -= 1
        let s = String(decoding: x, as: UTF8.self)
        let trimmed = s.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
