import Vectors

/// Builds op inputs for one format: valid inputs drawn from the format's own structures with
/// adversarial values, and (optionally) format-aware invalid ones. The engine's generic mutators
/// (`JSONMutator`, `CBORMutator`) turn valid inputs into invalid ones for every format; a generator
/// adds what only the format knows (a limit, a check order, a signature it can forge because it
/// holds the key).
///
/// A generator builds inputs only through the public and package API of `Vectors` (the reference
/// handlers included: an encode op's output is a decode op's input). It never reads `vectors/` or
/// the golden generators' case lists. One file per format in `Fuzz/Generators/`, registered in
/// `FuzzGenerators.all`; an op the format gains later that the generator does not list is reported
/// as not fuzzed, by name.
public protocol FuzzGenerator: Sendable {
    /// The format name, as in `vectors/<format>.json`.
    var format: String { get }
    /// The ops this generator builds inputs for.
    var ops: [String] { get }
    /// An input for `op` that the format's rules mostly accept. `rng` is the case's own generator,
    /// so the input depends only on the seed and the case's coordinates.
    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue
    /// A format-aware invalid input made from `valid`, or nil to leave it to the generic mutators.
    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue?
}

extension FuzzGenerator {
    public func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? { nil }
}

/// The registry: one generator per format. A format of `Reference.handlers` without one is
/// reported as not fuzzed.
public enum FuzzGenerators {
    public static var all: [any FuzzGenerator] {
        [StateDigestFuzzGenerator(), ReconcileFuzzGenerator(), SyncOfferFuzzGenerator(), SignInFuzzGenerator(),
         DeviceListFuzzGenerator(), AccountStateFuzzGenerator(), PairingFuzzGenerator(), RevocationFuzzGenerator(),
         EnvelopeFuzzGenerator(), SettleFuzzGenerator()]
    }

    public static func generator(for format: String) -> (any FuzzGenerator)? {
        all.first { $0.format == format }
    }
}

/// One format/op pair the fuzzer sends cases for, or the reason it does not.
public struct FuzzTarget: Sendable, Hashable {
    public var format: String
    public var op: String

    public init(format: String, op: String) {
        self.format = format
        self.op = op
    }

    public var name: String { "\(format)/\(op)" }

    /// The id of case `n`: `fuzz/<format>/<op>/<n>` (SPEC §6.12).
    public func caseID(_ n: Int) -> String { "fuzz/\(format)/\(op)/\(n)" }
}

/// The reference's own ops, for generators that chain them (an encode op's output is a decode
/// op's input; a signed message is built by the op that builds it). Always the unmutated reference:
/// the fuzzer's process never binds a mutant.
enum FuzzReference {
    static func output(_ format: String, _ op: String, _ input: JSONValue) -> JSONValue? {
        guard let h = Reference.handler(for: format) else { return nil }
        return try? h.run(op: op, input: input)
    }
}
