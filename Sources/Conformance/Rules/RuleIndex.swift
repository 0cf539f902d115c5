import Foundation

/// Every rule SPEC.md states, read from its `[R…]` tags (SPEC §2.3), plus what is wrong with the
/// tagging itself (an id used twice, an id whose section is not the heading it sits under, a
/// withdrawn id still in use). Reading the tags from the text, not from a second list, keeps the
/// index and the prose from drifting apart.
public struct RuleIndex: Sendable {
    public var rules: [Rule]
    public var withdrawn: [WithdrawnRule]
    /// Tagging mistakes, each naming the line; `conformance rules` and `coverage` fail on any.
    public var problems: [String]

    public func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }

    /// Parses SPEC.md's text.
    public static func parse(_ spec: String) -> RuleIndex {
        var rules: [Rule] = []
        var withdrawn: [WithdrawnRule] = []
        var problems: [String] = []
        var seen: [String: Int] = [:]
        var heading = ""          // the numbered section the current line is under ("4.3")
        var paragraph = ""        // text of the current paragraph or list item up to this line
        var inWithdrawnList = false
        var inFence = false

        for (index, rawLine) in spec.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            if trimmed.hasPrefix("#") {
                if let number = headingNumber(trimmed) { heading = number }
                paragraph = ""
                inWithdrawnList = false
                continue
            }
            if trimmed.isEmpty || isNewItem(trimmed) { paragraph = "" }
            if trimmed.hasPrefix("Withdrawn rule ids:") { inWithdrawnList = true; continue }
            if inWithdrawnList {
                if let w = withdrawnEntry(trimmed) { withdrawn.append(w); continue }
                if trimmed.isEmpty {
                    inWithdrawnList = false
                } else if !withdrawn.isEmpty {
                    withdrawn[withdrawn.count - 1].reason += " " + trimmed  // an entry's continuation line
                    continue
                }
            }
            var rest = Substring(line)
            while let tag = nextTag(in: rest) {
                let before = String(rest[rest.startIndex..<tag.range.lowerBound])
                let statement = clean(paragraph + " " + before)
                if let earlier = seen[tag.id] {
                    problems.append("SPEC.md:\(lineNumber): \(tag.id) is already used at line \(earlier)")
                } else {
                    seen[tag.id] = lineNumber
                    if tag.section != heading {
                        problems.append("SPEC.md:\(lineNumber): \(tag.id) sits under section \(heading.isEmpty ? "(none)" : heading), not \(tag.section)")
                    }
                    var rule = Rule(id: tag.id, section: tag.section, isOrder: tag.isOrder, text: statement, line: lineNumber)
                    rule.statement = clean(paragraph + " " + before, cut: false)
                    rules.append(rule)
                }
                paragraph = ""
                rest = rest[tag.range.upperBound...]
            }
            paragraph += " " + String(rest)
        }
        for w in withdrawn where seen[w.id] != nil {
            problems.append("SPEC.md: \(w.id) is withdrawn but still tagged at line \(seen[w.id]!)")
        }
        return RuleIndex(rules: rules, withdrawn: withdrawn, problems: problems)
    }

    public static func load(specAt url: URL) throws -> RuleIndex {
        parse(try String(contentsOf: url, encoding: .utf8))
    }

    // MARK: - Line reading

    struct Tag {
        var id: String
        var section: String
        var isOrder: Bool
        var range: Range<Substring.Index>
    }

    /// The next `[R<digits>(.<digits>)*-<digits>( order)?]` in the text. A tag inside a code
    /// span (`` `[R5.3-4]` ``) is an example, not a rule.
    static func nextTag(in text: Substring) -> Tag? {
        var search = text.startIndex
        while let open = text[search...].firstIndex(of: "[") {
            guard let close = text[open...].firstIndex(of: "]") else { return nil }
            let body = text[text.index(after: open)..<close]
            let insideCode = text[text.startIndex..<open].filter { $0 == "`" }.count % 2 == 1
            if !insideCode, let parsed = parseTagBody(body) {
                return Tag(id: parsed.id, section: parsed.section, isOrder: parsed.isOrder, range: open..<text.index(after: close))
            }
            search = text.index(after: open)
        }
        return nil
    }

    static func parseTagBody(_ body: Substring) -> (id: String, section: String, isOrder: Bool)? {
        var core = body
        var isOrder = false
        if core.hasSuffix(" order") { core = core.dropLast(6); isOrder = true }
        guard core.first == "R" else { return nil }
        let parts = core.dropFirst().split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let section = parts[0], number = parts[1]
        let sectionParts = section.split(separator: ".", omittingEmptySubsequences: false)
        guard !sectionParts.isEmpty, sectionParts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), number.first != "0" else { return nil }
        return ("R\(section)-\(number)", String(section), isOrder)
    }

    /// `## 4. StateDigest v6` → `4`; `### 4.3 Leaf preimage` → `4.3`; `#### messages` → nil.
    static func headingNumber(_ line: String) -> String? {
        let words = line.drop(while: { $0 == "#" }).split(separator: " ")
        guard var first = words.first else { return nil }
        if first.hasSuffix(".") { first = first.dropLast() }
        let parts = first.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return String(first)
    }

    /// A list item or table row starts a new statement.
    static func isNewItem(_ trimmed: String) -> Bool {
        if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("|") { return true }
        let digits = trimmed.prefix(while: \.isASCIIDigit)
        return !digits.isEmpty && trimmed.dropFirst(digits.count).hasPrefix(". ")
    }

    /// `- R4.3-2: reason` under "Withdrawn rule ids:".
    static func withdrawnEntry(_ trimmed: String) -> WithdrawnRule? {
        guard trimmed.hasPrefix("- ") else { return nil }
        let body = trimmed.dropFirst(2)
        guard let colon = body.firstIndex(of: ":") else { return nil }
        let id = body[..<colon].trimmingCharacters(in: .whitespaces)
        guard parseTagBody(Substring(id)) != nil else { return nil }
        return WithdrawnRule(id: id, reason: body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    /// One line of statement text: whitespace collapsed, earlier tags removed, cut at 240 chars.
    static func clean(_ s: String, cut: Bool = true) -> String {
        var text = s
        while let tag = nextTag(in: Substring(text)) { text.removeSubrange(tag.range) }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var out = words.joined(separator: " ")
        if cut, out.count > 240 { out = String(out.prefix(239)) + "…" }
        return out
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
