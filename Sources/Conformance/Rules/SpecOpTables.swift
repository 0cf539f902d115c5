import Foundation
import Vectors

/// The op-input members SPEC.md's op tables list, read from the tables themselves, so a test can
/// hold the facet table (what the reference reads) against the text (what SPEC says it reads).
///
/// Two table shapes are read: `| op | … | input | output |`, whose input cell is a brace
/// expression (`{cert, pinned_key or null, now_s}`, `{grant: {token, expires_at_s} or null}`,
/// `{leaves: [{key: hex, leaf: hex(32)}…]}`), and the `| member | type |` tables of §12.2 and
/// §13. A member whose type is a name SPEC defines elsewhere (`STATE`, `LIST`, `row`, `FRAME`) is
/// listed by name only: its inside is that structure's own table.
public struct SpecOpTables: Sendable {
    /// One member as SPEC writes it.
    public struct Member: Sendable, Hashable {
        /// `grant.token`, `leaves[].leaf`: the facet path form.
        public var path: String
        /// The §2.2 kind the type word names, when the word is one of the regular ones.
        public var kind: InputKind?
        public var optional: Bool
        public var nullable: Bool
        /// True when the type is a structure defined elsewhere: its inside is not listed here.
        public var opaque: Bool
    }

    /// `format/op` → members, for every op whose input cell is a brace expression or a member table.
    public var ops: [String: [Member]]
    /// `format/op` of ops whose input cell is only a structure's name (`REQUEST`, `SNAPSHOT`).
    public var opaqueOps: Set<String>

    /// The format whose section holds an op table (§13 holds two: by the op's name).
    static func format(section: String, op: String) -> String? {
        let major = section.split(separator: ".").first.map(String.init) ?? ""
        switch major {
        case "4": return "state_digest"
        case "5": return "reconcile"
        case "7": return "sync_offer"
        case "8": return "signin"
        case "10": return "device_list"
        case "11": return "account_state"
        case "12": return "settle"
        case "13": return op == "ensure_paired" ? "pairing" : "revocation"
        case "14": return "envelope"
        default: return nil
        }
    }

    public init(spec text: String) {
        var ops: [String: [Member]] = [:]
        var opaque = Set<String>()
        var section = ""
        var inputColumn: Int?
        var memberTable: (key: String, prefix: String)?
        var pendingMemberTable: (key: String, prefix: String)?
        var inFence = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            if line.hasPrefix("#") {
                let words = line.split(separator: " ")
                if words.count > 1, let first = words[1].first, first.isNumber { section = String(words[1]) }
                inputColumn = nil; memberTable = nil
                // The member tables an op reads, by the heading or prose before them.
                if section == "12.2" { pendingMemberTable = ("settle/step", "state.") }
                if section == "13.3" { pendingMemberTable = ("pairing/ensure_paired", "") }
                if section == "13.5" { pendingMemberTable = ("revocation/self_status_outcome", "") }
                continue
            }
            if line.hasPrefix("SIBLING is an object") { pendingMemberTable = ("settle/step", "state.siblings[].") }
            guard line.hasPrefix("|") else { inputColumn = nil; memberTable = nil; continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.first == "op", let i = cells.firstIndex(of: "input") { inputColumn = i; continue }
            if cells.first == "member", cells.count > 1, cells[1] == "type", let p = pendingMemberTable {
                memberTable = p; pendingMemberTable = nil; continue
            }
            if cells.allSatisfy({ $0.allSatisfy { $0 == "-" } }) { continue }
            if let t = memberTable, cells.count >= 2 {
                let name = cells[0].replacingOccurrences(of: "`", with: "")
                var m = SpecOpTables.member(name: name, type: cells[1])
                m.path = t.prefix + m.path
                ops[t.key, default: []].append(m)
                if t.key == "settle/step" { ops["settle/episode", default: []].append(m) }
                continue
            }
            guard let i = inputColumn, cells.count > i else { continue }
            let names = cells[0].split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            let cell = cells[i].replacingOccurrences(of: "`", with: "")
            for op in names where !op.isEmpty {
                guard let format = SpecOpTables.format(section: section, op: op) else { continue }
                let key = "\(format)/\(op)"
                guard let open = cell.firstIndex(of: "{") else { opaque.insert(key); continue }
                // Every brace group at the top level: `{…} or {…}`, `RECEIVE + {…}`.
                var members: [Member] = []
                var p = BraceParser(Array(cell[open...]))
                while p.i < p.s.count {
                    if p.s[p.i] == "{" { p.object(prefix: "", into: &members) } else { p.i += 1 }
                }
                // Prose after the braces: `; seed_key 32 bytes or null`, `; epoch uint64 or null (null: v0)`.
                for part in cell.split(separator: ";").dropFirst() {
                    let words = part.split(separator: " ")
                    if let name = words.first, part.contains("or null"), let j = members.firstIndex(where: { $0.path == String(name) }) {
                        members[j].nullable = true
                    }
                }
                if cell.hasPrefix("RECEIVE + "), let receive = ops["envelope/envelope_open"] { members = receive + members }
                ops[key, default: []] += members.filter { m in !ops[key, default: []].contains(where: { $0.path == m.path }) }
            }
        }
        self.ops = ops
        self.opaqueOps = opaque
    }

    /// A member from its name and a type cell: `integer or null: …`, `hex (32 bytes)`, `boolean`.
    static func member(name: String, type: String) -> Member {
        let optional = name.hasSuffix("?")
        let bare = optional ? String(name.dropLast()) : name
        let word = type.split(separator: ":").first.map(String.init) ?? type
        return Member(path: bare, kind: kind(word), optional: optional, nullable: word.contains("or null"), opaque: false)
    }

    /// The §2.2 kind a regular type word names; nil for a word that is not one of them.
    static func kind(_ type: String) -> InputKind? {
        let t = type.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " or null", with: "")
        if t.hasPrefix("hex") { return .hex }
        if t.hasPrefix("{") { return .object }
        if t.hasPrefix("[") || t.hasPrefix("array") { return .array }
        if t.hasPrefix("bool") { return .bool }
        if t == "text" || t.hasPrefix("text ") { return .text }
        if t == "n" || t.hasPrefix("integer") || t.hasPrefix("time") || t.hasPrefix("uint64") { return .uint64 }
        return nil
    }
}

/// `{a, b?: hex, c: {d, e} or null, f: [{g}…]}` → members with paths `a`, `b`, `c`, `c.d`, …
struct BraceParser {
    var s: [Character]
    var i = 0
    init(_ s: [Character]) { self.s = s }

    mutating func object(prefix: String, into out: inout [SpecOpTables.Member]) {
        guard i < s.count, s[i] == "{" else { return }
        i += 1
        while i < s.count {
            skipSpace()
            if i < s.count, s[i] == "}" { i += 1; return }
            var name = ""
            while i < s.count, s[i].isLetter || s[i].isNumber || s[i] == "_" || s[i] == "?" { name.append(s[i]); i += 1 }
            skipSpace()
            var type = ""
            var elementsOpaque = false
            var nested: [SpecOpTables.Member] = []
            let path = prefix + (name.hasSuffix("?") ? String(name.dropLast()) : name)
            if i < s.count, s[i] == ":" {
                i += 1
                skipSpace()
                if i < s.count, s[i] == "{" {
                    type = "{"
                    object(prefix: path + ".", into: &nested)
                } else if i < s.count, s[i] == "[" {
                    type = "["
                    i += 1
                    skipSpace()
                    if i < s.count, s[i] == "{" { object(prefix: path + "[].", into: &nested) }
                    // `[SNAPSHOT…]`, `[row…]`: elements are a structure defined elsewhere.
                    if i < s.count, s[i].isUppercase || s[i...].starts(with: "row") { elementsOpaque = true }
                    skipTo(closing: "]")
                }
            }
            // The rest of the item up to the next `,` or `}` at this depth: the type words.
            var depth = 0
            while i < s.count {
                let c = s[i]
                if depth == 0 && (c == "," || c == "}") { break }
                if c == "{" || c == "[" || c == "(" { depth += 1 }
                if c == "}" || c == "]" || c == ")" { depth -= 1 }
                type.append(c)
                i += 1
            }
            if i < s.count, s[i] == "," { i += 1 }
            guard !name.isEmpty else { continue }
            let t = type.trimmingCharacters(in: .whitespaces)
            let bare = name.hasSuffix("?") ? String(name.dropLast()) : name
            let opaque = elementsOpaque || (t.isEmpty && bare == "row")
                || (SpecOpTables.kind(t) == nil && (t.first?.isUppercase ?? false || t.hasPrefix("row")))
            out.append(SpecOpTables.Member(path: path, kind: SpecOpTables.kind(t), optional: name.hasSuffix("?"),
                                           nullable: t.contains("or null"), opaque: opaque))
            out += nested
        }
    }

    mutating func skipSpace() { while i < s.count, s[i] == " " { i += 1 } }

    mutating func skipTo(closing: Character) {
        var depth = 0
        while i < s.count {
            if s[i] == "[" || s[i] == "{" { depth += 1 }
            if s[i] == "]" || s[i] == "}" {
                if depth == 0 && s[i] == closing { i += 1; return }
                depth -= 1
            }
            i += 1
        }
    }
}
