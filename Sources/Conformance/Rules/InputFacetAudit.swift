import Vectors

/// The facet table held against SPEC.md's op tables: each disagreement as one line
/// `<format>/<op>/<path>: <what>`. A test pins the list, each line with its reason, so a member
/// added to the code or the text alone fails it.
public enum InputFacetAudit {
    public static func disagreements(facets: [InputFacet], spec: SpecOpTables) -> [String] {
        var out: [String] = []
        let byOp = Dictionary(grouping: facets, by: { "\($0.format)/\($0.op)" })
        for key in byOp.keys.sorted() {
            let found = byOp[key] ?? []
            if spec.opaqueOps.contains(key) { continue }
            guard let listed = spec.ops[key] else {
                out.append("\(key): the op has no input row in SPEC.md's op tables")
                continue
            }
            for f in found {
                if f.path.hasSuffix("[]"), listed.contains(where: { matches($0.path, String(f.path.dropLast(2))) && $0.kind == .array }) { continue }
                if let m = listed.first(where: { matches($0.path, f.path) }) {
                    if let k = m.kind, !(k == f.kind || (k == .uint64 && f.kind == .int64)) {
                        out.append("\(key)/\(f.path): SPEC says \(k.rawValue), the reference reads \(f.kind.rawValue)")
                    }
                    if m.nullable != f.nullable { out.append("\(key)/\(f.path): SPEC says \(m.nullable ? "" : "not ")nullable, the reference reads it \(f.nullable ? "" : "not ")nullable") }
                    if m.optional != f.optional { out.append("\(key)/\(f.path): SPEC says \(m.optional ? "" : "not ")optional, the reference reads it \(f.optional ? "" : "not ")optional") }
                } else if listed.contains(where: { $0.opaque && under(f.path, $0.path) }) {
                    continue
                } else {
                    out.append("\(key)/\(f.path): read by the reference, not in SPEC's table")
                }
            }
            for m in listed where !found.contains(where: { matches(m.path, $0.path) || under($0.path, m.path) }) {
                if listed.contains(where: { $0.opaque && under(m.path, $0.path) }) { continue }
                out.append("\(key)/\(m.path): in SPEC's table, read by no committed case")
            }
        }
        return out
    }

    /// Where the order the reference reads an op's required top-level members in (the order the
    /// input-order cases pin, R2.2-7) is not the order SPEC.md's op table lists them in: one line
    /// `<format>/<op>: table a, b, c; the reference reads b, a, c` per op.
    public static func orderDisagreements(_ handler: any FormatHandler, cases: [VectorCase], spec: SpecOpTables) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        for (pair, base) in InputOrderCases.pairs(handler, cases: cases) where seen.insert(pair.op).inserted {
            let key = "\(handler.format)/\(pair.op)"
            guard let listed = spec.ops[key] else { continue }
            let read = InputOrderCases.readOrder(handler, base)
            var table: [String] = []
            for m in listed {
                let top = String(m.path.split(separator: ".").first ?? "").replacingOccurrences(of: "[]", with: "")
                if read.contains(top), !table.contains(top) { table.append(top) }
            }
            let reference = read.filter { table.contains($0) }
            if reference != table { out.append("\(key): table \(table.joined(separator: ", ")); the reference reads \(reference.joined(separator: ", "))") }
        }
        return out
    }

    /// A SPEC path matches a facet path segment by segment; `name` (a namespace name) and an
    /// uppercase word (`KEYHEX`, `DEVICE`) stand for any member name, `{}` included.
    static func matches(_ spec: String, _ facet: String) -> Bool {
        let a = segments(spec), b = segments(facet)
        return a.count == b.count && zip(a, b).allSatisfy { x, y in
            x == y || ((x == "name" || (x.first?.isUppercase ?? false && x == x.uppercased())) && !y.hasSuffix("[]") || x.replacingOccurrences(of: "name", with: y.replacingOccurrences(of: "[]", with: "")) == y)
        }
    }

    /// `facet` lies inside the member `spec` (below it, not equal).
    static func under(_ facet: String, _ spec: String) -> Bool {
        let a = segments(spec), b = segments(facet)
        guard b.count >= a.count else { return false }
        if b.count == a.count { return b.last != a.last && b.last == (a.last ?? "") + "[]" && matches(spec, String(facet.dropLast(2))) }
        return matches(spec, b.prefix(a.count).joined(separator: ".")) || matches(spec + "[]", b.prefix(a.count).joined(separator: "."))
    }

    static func segments(_ p: String) -> [String] { p.split(separator: ".").map(String.init) }
}
