import Primitives

/// How a format seals and opens the sealed member of an op input (the sealed-sender envelope:
/// a header, then HPKE to the recipient whose private seed the input holds).
public struct Sealing: Sendable {
    /// Seals `plaintext` under `aad` to the recipient `input` names, with the eseed of `label`
    /// (never drawn from a generator's shared stream): the bytes that follow the header.
    let seal: @Sendable (_ plaintext: [UInt8], _ aad: [UInt8], _ input: CBOR, _ label: String) throws -> [UInt8]
    /// Opens the bytes that follow the header under `aad`, with the key `input` names; nil when
    /// they do not open.
    let open: @Sendable (_ sealed: [UInt8], _ aad: [UInt8], _ input: CBOR) throws -> [UInt8]?
}

/// What a model's input holds, its sealed member given by what it seals rather than by its bytes.
public struct SealedInput: Sendable {
    /// The op input; its member `member` is there, with any value (the seal takes its place).
    var input: CBOR
    /// The member holding header ‖ seal.
    var member: String
    /// The header on the wire.
    var header: [UInt8]
    /// The header the seal was made under (its AAD): `header`, unless the model alters the header
    /// after sealing (a fault of the seal itself).
    var aad: [UInt8]
    var plaintext: [UInt8]

    init(_ input: CBOR, member: String, header: [UInt8], sealedUnder aad: [UInt8]? = nil, plaintext: [UInt8]) {
        self.input = input
        self.member = member
        self.header = header
        self.aad = aad ?? header
        self.plaintext = plaintext
    }
}

/// The model of a two-fault case whose seal was made under randomness from its generator's shared
/// stream. A model cannot draw that randomness again, and one changed byte of plaintext changes
/// every byte of the seal, so neither the model's bytes nor a byte comparison can show the case
/// is what the model says. What shows it: with both faults on,
///
/// - every other member of the committed input is the model's, in the model's order;
/// - the committed sealed member begins with the model's header;
/// - the rest opens, under the model's AAD and with the key the committed input itself names, to
///   exactly the model's plaintext.
///
/// The randomness of a seal (the eseed) is then the only thing left unchecked, and no answer of
/// the reference depends on it: the inputs the model runs (no fault, each alone) are sealed afresh
/// under a labelled eseed, and each is checked to open to what the model says it holds.
struct SealedModel: Sendable {
    let sealing: Sealing
    let contents: @Sendable (FaultSet) throws -> SealedInput

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The input with the faults in `s` on, sealed afresh under the eseed of `label`.
    func input(_ s: FaultSet, label: String) throws -> CBOR {
        let m = try contents(s)
        let sealed = try sealing.seal(m.plaintext, m.aad, m.input, label)
        let input = try Self.setting(m.input, m.member, .bytes(m.header + sealed))
        // The seal and the open agree: what the model runs is what the committed case is compared by.
        guard try sealing.open(sealed, m.aad, input) == m.plaintext else {
            throw Failed(description: "its freshly sealed \(m.member) does not open to the plaintext it was sealed from")
        }
        return input
    }

    /// nil when the committed input is the model's with both faults on; else what differs.
    func problem(committed: CBOR, both: FaultSet) throws -> String? {
        let m = try contents(both)
        guard let held = committed[m.member], let bytes = Self.bytes(held) else { return "the case's input holds no bytes \(m.member)" }
        // As JSON: a committed case read back holds its bytes as hex text, not as bytes.
        guard try Self.setting(m.input, m.member, held).json == committed.json else {
            return "its model with both faults on is not the case's input outside \(m.member)"
        }
        guard bytes.starts(with: m.header) else {
            return "its model with both faults on has the header \(Hex.encode(m.header)), the case's \(m.member) \(Hex.encode(bytes.prefix(m.header.count)))"
        }
        guard let plaintext = try sealing.open(Array(bytes.dropFirst(m.header.count)), m.aad, committed) else {
            return "the case's \(m.member) does not open under its model's AAD \(Hex.encode(m.aad)) with the key of the case's input"
        }
        guard plaintext == m.plaintext else { return "the case's \(m.member) opens to another plaintext than its model's with both faults on" }
        return nil
    }

    /// Bytes as built (`.bytes`) or as read back from a vector file (hex text).
    static func bytes(_ v: CBOR) -> [UInt8]? {
        switch v {
        case .bytes(let b): return b
        case .text(let s): return Hex.decode(s)
        default: return nil
        }
    }

    /// `input` with its member `member` (which must be there) holding `value`, in its place.
    static func setting(_ input: CBOR, _ member: String, _ value: CBOR) throws -> CBOR {
        guard case .map(var entries) = input, let i = entries.firstIndex(where: { $0.key == .text(member) }) else {
            throw Failed(description: "its input has no member \(member)")
        }
        entries[i].value = value
        return .map(entries)
    }
}
