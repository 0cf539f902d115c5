/// A machine-readable statement of what a rule of SPEC.md bounds or orders (issue 23, item 1).
///
/// A rule pinned by one case leaves its edges open: a `<` written `<=` passes a case far past the
/// limit, and two checks done the other way round pass a case holding one fault. A facet says
/// exactly where the edge is, so the generator can derive the cases at it and `conformance
/// coverage` can measure that they exist. Facets live next to each format's generator, not in
/// SPEC.md (which stays prose); `FacetSpecTests` proves the two agree.
public enum Facet: Sendable {
    case limit(LimitFacet)
    case order(OrderFacet)
    case tieBreak(TieBreakFacet)

    public var id: String {
        switch self {
        case .limit(let f): return f.id
        case .order(let f): return f.id
        case .tieBreak(let f): return f.id
        }
    }

    public var rule: String {
        switch self {
        case .limit(let f): return f.rule
        case .order(let f): return f.rule
        case .tieBreak(let f): return f.rule
        }
    }

    public var format: String {
        switch self {
        case .limit(let f): return f.format
        case .order(let f): return f.format
        case .tieBreak(let f): return f.format
        }
    }
}

/// A stated tie-break (issue 23, item 4 of "why"): what SPEC says happens when two keys, times,
/// stamps or versions are equal, and the other readings a team could take. Each other reading is
/// a mutant of the reference; the tie-break is measured when, for every one of them, some case
/// pinning the rule is answered otherwise under it, so the cases tell the readings apart rather
/// than happening to give one answer under both.
public struct TieBreakFacet: Sendable {
    public var rule: String
    public var format: String
    /// The rule's own words for the tie (quoted from it: the agreement test checks).
    public var tie: String
    /// What the rule decides on the tie.
    public var decides: String
    /// The other readings, as mutants.
    public var others: [Mutant]

    public init(rule: String, format: String, tie: String, decides: String, others: [Mutant]) {
        self.rule = rule
        self.format = format
        self.tie = tie
        self.decides = decides
        self.others = others
    }

    /// `tiebreak:R11.4-2`.
    public var id: String { "tiebreak:\(rule)" }
}

/// The three values a limit is probed at: one step inside-or-below, the bound itself, one step
/// beyond. Which of them is accepted follows from `LimitFacet.side` and `inclusive`.
public enum LimitEdge: String, Sendable, CaseIterable {
    case below, at, above

    /// The step from the bound, in the facet's unit.
    public var delta: Int {
        switch self {
        case .below: return -1
        case .at: return 0
        case .above: return 1
        }
    }
}

/// One bound a rule states: a length, count, range, window, cap, depth or deadline.
public struct LimitFacet: Sendable, Equatable {
    /// Whether the bound is the largest or the smallest value inside the limit.
    public enum Side: String, Sendable {
        /// Values up to the bound are inside (a length cap, a window, "more than 8 trips").
        case max
        /// Values from the bound up are inside (a clock that may not go backwards).
        case min
        /// Only the bound is inside (a fixed-size id: one byte short and one byte over are both
        /// refused); `inclusive` is then always true.
        case exact
    }

    /// What happens to a value outside the limit.
    public enum Effect: Sendable, Equatable {
        /// The op fails with this code.
        case refuse(ErrorCode)
        /// The op succeeds with a different answer (a round leaves the window, the guard trips);
        /// the text says what changes.
        case behaviour(String)
    }

    /// `R12.5-2`.
    public var rule: String
    /// Tells two bounds of one rule apart (`debounce`, `backoff`); nil when the rule has one.
    public var name: String?
    public var format: String
    /// What is bounded, in the words of a reader ("an event's `at`, against the state's `now`").
    public var quantity: String
    /// The bound as the rule's sentence writes it (`10000`, `2^64 − 1`, `now`, `32 bytes`): the
    /// agreement test finds this text in the rule.
    public var bound: String
    public var side: Side
    /// True when the bound itself is inside the limit.
    public var inclusive: Bool
    public var effect: Effect

    public init(rule: String, name: String? = nil, format: String, quantity: String, bound: String, side: Side,
                inclusive: Bool, effect: Effect) {
        self.rule = rule
        self.name = name
        self.format = format
        self.quantity = quantity
        self.bound = bound
        self.side = side
        self.inclusive = inclusive
        self.effect = effect
    }

    /// `limit:R12.1-2/debounce`.
    public var id: String { "limit:\(rule)" + (name.map { "/\($0)" } ?? "") }

    /// The flag a case derived at `edge` carries: `facet:limit:R12.5-2:at`.
    public func flag(_ edge: LimitEdge) -> String { "facet:\(id):\(edge.rawValue)" }

    /// True when the value `edge` names is inside the limit (accepted, or the answer of the
    /// inside side).
    public func inside(_ edge: LimitEdge) -> Bool {
        switch (side, edge) {
        case (_, .at): return inclusive
        case (.exact, _): return false
        case (.max, .below), (.min, .above): return true
        case (.max, .above), (.min, .below): return false
        }
    }
}

/// A stated order between checks (`[R… order]`): the checks, earliest first, each with the
/// outcome it gives when it alone fails.
public struct OrderFacet: Sendable, Equatable {
    public struct Check: Sendable, Equatable {
        /// A short name (`read`, `clock`, `sibling`).
        public var name: String
        /// The code the op fails with when this check fails; nil when failing it is an output
        /// (`drop_digest`), and then `outcome` describes it.
        public var code: ErrorCode?
        public var outcome: String

        public init(_ name: String, _ code: ErrorCode) {
            self.name = name
            self.code = code
            self.outcome = code.rawValue
        }

        public init(_ name: String, output: String) {
            self.name = name
            self.code = nil
            self.outcome = output
        }
    }

    public var rule: String
    public var format: String
    public var checks: [Check]

    public init(rule: String, format: String, checks: [Check]) {
        self.rule = rule
        self.format = format
        self.checks = checks
    }

    /// `order:R12.5-3`.
    public var id: String { "order:\(rule)" }

    /// The pairs a case must hold both faults of: every adjacent pair, and first against last
    /// when there are more than two checks (0-based indexes, earlier first).
    public var pairs: [OrderPair] {
        var out = (0..<max(0, checks.count - 1)).map { OrderPair(first: $0, second: $0 + 1) }
        if checks.count > 2 { out.append(OrderPair(first: 0, second: checks.count - 1)) }
        return out
    }

    /// `facet:order:R12.5-3:1-2` (1-based, as a reader counts the checks).
    public func flag(_ pair: OrderPair) -> String { "facet:\(id):\(pair.label)" }
}

/// Two checks of an order facet, by 0-based index, `first` before `second`.
public struct OrderPair: Sendable, Equatable, Hashable {
    public var first: Int
    public var second: Int
    public init(first: Int, second: Int) {
        self.first = first
        self.second = second
    }
    /// `1-2`: 1-based.
    public var label: String { "\(first + 1)-\(second + 1)" }
}

/// One format's facets: the SPEC.md section they come from, and the rules of that section that
/// read like a bound but state none (each with the reason), so the agreement test can tell a
/// forgotten limit from a considered one.
public struct FormatFacets: Sendable {
    public var format: String
    public var section: String
    public var facets: [Facet]
    public var boundless: [String: String]
    /// `[R… order]` rules of the section with no order facet yet, each with why: the coverage
    /// report prints them, so a partial format is never shown as complete.
    public var unfacetedOrders: [String: String]
    /// `[R… order]` rules that no input can break twice with two different answers (each with
    /// why): they have no order facet, and the rule axis pins them with single-fault cases
    /// instead of asking for a two-fault case that cannot exist.
    public var singleFaultOrders: [String: String]
    /// `[R… order]` rules that are orders of the op-input layer, not of the format's checks: the
    /// input axis of `conformance coverage` measures them, not the order axis.
    public var measuredElsewhere: [String: OrderMeasuredBy]
    /// Why the section states no tie-break, for a format that declares none: the coverage report
    /// prints it, so "none stated" is never confused with "not looked at".
    public var noTieBreaks: String?

    public init(format: String, section: String, facets: [Facet], boundless: [String: String], unfacetedOrders: [String: String] = [:],
                singleFaultOrders: [String: String] = [:], measuredElsewhere: [String: OrderMeasuredBy] = [:], noTieBreaks: String? = nil) {
        self.format = format
        self.section = section
        self.facets = facets
        self.boundless = boundless
        self.unfacetedOrders = unfacetedOrders
        self.singleFaultOrders = singleFaultOrders
        self.measuredElsewhere = measuredElsewhere
        self.noTieBreaks = noTieBreaks
    }
}

/// Which derived cases measure an order rule of the op-input layer.
public enum OrderMeasuredBy: String, Sendable {
    /// Neighbouring required members of every op, each absent before the other mistyped and the
    /// reverse (R2.2-7's pairs, `InputOrderCases`).
    case inputOrder = "input-order"
    /// Every member read before any rule: for each op in scope and rule code, a member mistyped
    /// as well (`InputBeforeRulesCases.scopes` names the rule).
    case inputBeforeRules = "input-before-rules"
}

/// Every format's facets, and which formats have none yet.
public enum FacetIndex {
    /// The faceted formats, in the order the coverage report lists them.
    public static let formats: [FormatFacets] = [
        SettleFacets.declared,
        EnvelopeFacets.declared,
        AccountStateFacets.declared,
        SyncOfferFacets.declared,
        StateDigestFacets.declared,
        ReconcileFacets.declared,
        SignInFacets.declared,
        DeviceListFacets.declared,
    ]

    /// Formats the limit and order axes do not measure yet (said so, not counted as met).
    public static let notYetFaceted = ["state_digest", "reconcile", "sync_offer", "signin", "device_list", "account_state", "envelope"]
        .filter { f in !formats.contains { $0.format == f } }

    /// The HTTP formats: another part of issue 23 facets their scenarios.
    public static let outOfScope = ["pairing", "revocation"]

    /// The HTTP formats on the one axis they are measured on by facets: tie-breaks. Their limits
    /// and orders are their scenario edges' (`HTTPEdges`), so they stay out of `formats`, whose
    /// sections the limit and order axes check rule by rule.
    public static let tieBreaksOnly: [FormatFacets] = [PairingFacets.declared, RevocationFacets.declared]

    /// The limits, orders and tie-breaks of the faceted formats.
    public static var all: [Facet] { formats.flatMap(\.facets) }

    /// The order rules no input can break twice (`FormatFacets.singleFaultOrders`), every format's.
    public static var singleFaultOrders: Set<String> { Set(formats.flatMap(\.singleFaultOrders.keys)) }

    /// Every declared tie-break: the faceted formats' and the HTTP formats'.
    public static var tieBreaks: [Facet] {
        (formats + tieBreaksOnly).flatMap(\.facets).filter { if case .tieBreak = $0 { true } else { false } }
    }
}
