/// How a repeated name is read: a member name repeated in a JSON body (SPEC [R13.1-6]) or a
/// field line repeated in a request (`Authorization`, SPEC [R13.2-19] and [R13.4-15]). SPEC
/// refuses both, so that two readers of one message cannot disagree about what it says; a stock
/// JSON parser or header map keeps the first or the last. The services and the client read every
/// repeat through this one seam, and their tie-break mutants pick `first` or `last` here.
public enum RepeatReading: Sendable, Equatable {
    /// SPEC's reading: a repeat makes the body unreadable, or the credentials absent.
    case refused
    case first
    case last

    /// The reading a tie-break mutant switches on (`last` before `first` when both are), else
    /// SPEC's: the one spelling of the five places that read repeats.
    static func mutated(first: Bool, last: Bool) -> RepeatReading { last ? .last : first ? .first : .refused }

    /// The body as a JSON object with one value per member name; nil when it is not one by
    /// §13.1's strict rule (a repeated name included, when refused).
    func object(_ body: [UInt8]) -> JSONValue? {
        guard self != .refused else {
            guard case .success(let v) = StrictJSON.object(body) else { return nil }
            return v
        }
        guard let text = String(validating: body, as: UTF8.self), let v = try? JSONValue.parse(text),
              let members = v.objectValue else { return nil }
        var kept: [(String, JSONValue)] = []
        for (name, value) in members {
            if let i = kept.firstIndex(where: { $0.0 == name }) {
                if self == .last { kept[i].1 = value }
            } else {
                kept.append((name, value))
            }
        }
        return .object(kept)
    }

    /// The string member `name` of a JSON object body read as `object` reads it.
    func stringMember(_ name: String, of body: [UInt8]) -> String? {
        object(body)?[name]?.stringValue
    }

    /// The one value of a field that must appear at most once; nil when it is absent, or repeated
    /// and refused.
    func onlyValue(_ values: [[UInt8]]) -> [UInt8]? {
        switch self {
        case .refused: return values.count == 1 ? values[0] : nil
        case .first: return values.first
        case .last: return values.last
        }
    }
}
