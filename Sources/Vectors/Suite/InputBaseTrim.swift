/// Makes a battery base small before it is copied once per spelling: other elements of the arrays
/// on the member's path, other arrays emptied, members off the path removed, each edit kept only
/// when the reference still answers with an output and still reads the member as the same kind.
/// Without it a member of one row in a thirteen-namespace digest carries all thirteen, twenty-odd
/// times over (the files grew by 130 MB before this).
struct InputBaseTrim {
    let handler: any FormatHandler
    let op: String
    var cache: [String: (CBOR, [InputStep])] = [:]

    init(_ handler: any FormatHandler, op: String) {
        self.handler = handler
        self.op = op
    }

    /// The trimmed input and the member's steps inside it.
    mutating func trim(_ base: VectorCase, _ facet: InputFacet) -> (CBOR, [InputStep]) {
        guard case .output = base.expected else { return (base.input, facet.steps) }
        let lastIndex = facet.steps.lastIndex { if case .index = $0 { true } else { false } }
        let key = base.id + "\u{0}" + InputFacets.path(Array(facet.steps.prefix(lastIndex.map { $0 + 1 } ?? 0)))
        if let hit = cache[key], InputCases.value(at: retarget(facet.steps, hit.1), in: hit.0) != nil, reads(hit.0, retarget(facet.steps, hit.1), facet.kind) {
            return (hit.0, retarget(facet.steps, hit.1))
        }
        var input = base.input
        var steps = facet.steps
        // 1. Arrays on the path: only the element the path goes through, now at index 0.
        for (i, s) in steps.enumerated() {
            guard case .index(let j) = s, let arr = InputCases.value(at: Array(steps.prefix(i)), in: input), case .array(let items) = arr, items.count > 1 else { continue }
            var candidateSteps = steps
            candidateSteps[i] = .index(0)
            let candidate = InputCases.edit(input, Array(steps.prefix(i)), .array([items[j]]))
            if ok(candidate, candidateSteps, facet.kind) { input = candidate; steps = candidateSteps }
        }
        // 2. Everything off the path, outermost first: members removed, else arrays emptied.
        var queue: [[InputStep]] = [[]]
        while let at = queue.first {
            queue.removeFirst()
            guard let node = InputCases.value(at: at, in: input) else { continue }
            let onPath = at.count < steps.count && Array(steps.prefix(at.count)) == at
            switch node {
            case .map(let entries):
                for e in entries {
                    guard case .text(let k) = e.key else { continue }
                    let child = at + [.key(k)]
                    if onPath && steps[at.count] == .key(k) { queue.append(child); continue }
                    let removed = InputCases.removing(input, child)
                    if ok(removed, steps, facet.kind) { input = removed; continue }
                    if case .array(let items) = e.value, !items.isEmpty {
                        let emptied = InputCases.edit(input, child, .array([]))
                        if ok(emptied, steps, facet.kind) { input = emptied; continue }
                    }
                    queue.append(child)
                }
            case .array(let items):
                for j in items.indices { queue.append(at + [.index(j)]) }
            default:
                break
            }
        }
        cache[key] = (input, steps)
        return (input, steps)
    }

    /// The cached steps' array indexes applied to another member of the same element.
    func retarget(_ steps: [InputStep], _ trimmed: [InputStep]) -> [InputStep] {
        var out = steps
        for i in out.indices where i < trimmed.count { if case .index = out[i], case .index = trimmed[i] { out[i] = trimmed[i] } }
        return out
    }

    func ok(_ input: CBOR, _ steps: [InputStep], _ kind: InputKind) -> Bool {
        guard case .success = InputCases.run(handler, op, input) else { return false }
        return reads(input, steps, kind)
    }

    func reads(_ input: CBOR, _ steps: [InputStep], _ kind: InputKind) -> Bool {
        let recorder = InputRecorder()
        let json = input.json
        guard case .success = recorder.recording({ () throws(WireError) in try handler.run(op: op, input: json) }) else { return false }
        let path = InputFacets.path(steps)
        return recorder.reads.contains { $0.path == path && $0.kind == kind }
    }
}

extension InputCases {
    /// The tree without the member at `steps` (a map member only).
    static func removing(_ t: CBOR, _ steps: [InputStep]) -> CBOR {
        guard let last = steps.last, case .key(let k) = last, let parent = value(at: Array(steps.dropLast()), in: t),
              case .map(let entries) = parent else { return t }
        return edit(t, Array(steps.dropLast()), .map(entries.filter { $0.key != .text(k) }))
    }
}
