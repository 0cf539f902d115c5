import Foundation
import Primitives

/// The places where a stock library or a hurried implementer of SPEC.md §10 reads or decides
/// differently from the reference, each one a value the `device_list` mutants switch. Every
/// mutant of this format changes exactly one of these; the readers and rules call them and carry
/// no mutant logic of their own.
enum DeviceListSeams {
    // MARK: byte layouts (§10.2, §10.3)

    /// A little-endian unsigned integer of `bytes.count` bytes. Mutant: read big-endian, as
    /// network-order helpers (`ntohl`, `ByteBuffer.readInteger()` defaults) do.
    static func unsigned(_ bytes: [UInt8]) -> UInt64 {
        let ordered = Mutant.on(.listBigEndianLengths) ? bytes : bytes.reversed()
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A u32 length or count as the decoder uses it. Mutant: held in a signed 32-bit integer, so
    /// 2^31 and above are negative, and a negative count reads no ids (a C `for (i = 0; i < n; i++)`).
    static func count(_ raw: UInt32) -> Int {
        Mutant.on(.listSigned32BitCounts) ? max(0, Int(Int32(bitPattern: raw))) : Int(raw)
    }

    /// A credential name from its bytes: strict UTF-8 (RFC 3629) or nil. Mutant: the lossy
    /// default (`String(decoding:as:)`, Java's `new String(bytes, UTF_8)`), which turns bad
    /// bytes into U+FFFD instead of refusing them.
    static func name(_ bytes: [UInt8]) -> String? {
        if Mutant.on(.listLossyNameDecoding) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A name as `credential_issue` signs it. Mutant: normalised to NFC first.
    static func nameToSign(_ name: String) -> String {
        Mutant.on(.listNameNormalisedNFC) ? name.precomposedStringWithCanonicalMapping : name
    }

    // MARK: bundles (§10.1)

    /// The ML-KEM-768 part of a parsed bundle as every later step uses it: re-encoded with each
    /// coefficient mod q, as Haven's `ml-kem` round trip does ([R10.1-7]); nil refuses the bundle.
    /// Mutants: kept as given (the part treated as opaque bytes), or refused when it fails FIPS
    /// 203's modulus check (a stock `ML-KEM.Encaps` input check applied at parse time).
    static func mlkemKey(_ given: ArraySlice<UInt8>) -> [UInt8]? {
        if Mutant.on(.listMLKEMKeyAsGiven) { return Array(given) }
        if Mutant.on(.listMLKEMModulusChecked) { return MLKEMKeyReencoding.isCanonical(given) ? Array(given) : nil }
        return MLKEMKeyReencoding.reencoded(given)
    }

    // MARK: signatures (§10.1)

    /// nil: Haven's order (`PublicBundle.verify`). Otherwise another order a testee might use.
    static var hybridOrderOverride: ((HybridSignature.PublicKey, [UInt8], [UInt8], String) throws(WireError) -> Void)? {
        if Mutant.on(.listBothHalvesReported) {
            // A stock "verify both halves, say which failed" hybrid (this suite's §9.3 mapping).
            return { (key, sig, msg, field) throws(WireError) in
                let failure: HybridSignature.Failure
                do throws(HybridSignature.Failure) { try key.verify(sig, for: msg); return } catch { failure = error }
                switch failure {
                case .wrongLength: throw WireError(.deviceListSigWrongLength, "wrong length", field: field)
                case .ed25519Invalid: throw WireError(.deviceListSigEd25519Invalid, "Ed25519 half", field: field)
                case .mldsaInvalid: throw WireError(.deviceListSigMLDSAInvalid, "ML-DSA half", field: field)
                case .bothInvalid: throw WireError(.deviceListSigBothInvalid, "both halves", field: field)
                }
            }
        }
        if Mutant.on(.listSignatureLengthFirst) {
            // The total length judged before either half, then Haven's order.
            return { (key, sig, msg, field) throws(WireError) in
                guard sig.count == HybridSignature.byteCount else { throw WireError(.deviceListSigWrongLength, "wrong length", field: field) }
                guard key.ed25519.isValidSignature(sig[0..<64], for: msg) else { throw WireError(.deviceListSigEd25519Invalid, "Ed25519 half", field: field) }
                guard key.mldsa.isValidSignature(sig[64...], for: msg, context: []) else { throw WireError(.deviceListSigMLDSAInvalid, "ML-DSA half", field: field) }
            }
        }
        return nil
    }

    /// Verify ops parse the pinned bundle before decoding the wire (Haven's FFI order). Mutant:
    /// the wire first.
    static var pinnedBeforeWire: Bool { !Mutant.on(.listWireBeforePinned) }

    // MARK: account-side changes (§10.4)

    /// The next version. Mutant: Haven's release-build `+ 1`, which wraps 2^64 − 1 to 0.
    static func bump(_ v: UInt64) throws(WireError) -> UInt64 {
        if Mutant.on(.listVersionWraps) { return v &+ 1 }
        guard v < UInt64.max else {
            throw WireError(.deviceListVersionExhausted, "version 2^64 − 1 cannot be followed", field: "version")
        }
        return v + 1
    }

    /// Whether a re-signing op checks that its seed derives the list's account. Mutant: Haven's
    /// library, which signs with whatever identity it is given.
    static var signerChecked: Bool { !Mutant.on(.listSignerNotChecked) }

    // MARK: op inputs (§2.2 as §10.6 reads it)

    /// A uint64 input member. Mutants: parsed through a double (JavaScript numbers,
    /// `JSONSerialization`), through a signed 64-bit integer, or leniently (`1.0`, `1e0`, `true`
    /// taken as integers).
    static func uint64(_ v: JSONValue) -> UInt64? {
        if Mutant.on(.listIntegersViaDouble) {
            guard let n = v.uint64Value else { return nil }
            let d = Double(n)
            return d >= 18446744073709551615.0 ? UInt64.max : UInt64(d)
        }
        if Mutant.on(.listIntegersAsInt64) {
            guard let n = v.int64Value, n >= 0 else { return nil }
            return UInt64(n)
        }
        if Mutant.on(.listLenientIntegers) {
            switch v {
            case .bool(let b): return b ? 1 : 0
            case .number(let text): if let d = Double(text), d >= 0, d == d.rounded(), d < 1.8e19 { return UInt64(d) }
            default: break
            }
        }
        return v.uint64Value
    }

    // MARK: the advertisement (§10.5)

    /// The entries of an advertisement, split on the byte 0x2C. Mutant: a split that drops empty
    /// entries (Swift's `split(separator:)` default, Kotlin's `split(...).filter { it.isNotEmpty() }`).
    static func entries(_ csv: String) -> [[UInt8]] {
        Array(csv.utf8).split(separator: 0x2C, omittingEmptySubsequences: Mutant.on(.listCSVSplitDropsEmpty)).map(Array.init)
    }

    /// An entry as it is checked. Mutant: trimmed of spaces first.
    static func entry(_ e: [UInt8]) -> [UInt8] {
        guard Mutant.on(.listCSVEntriesTrimmed) else { return e }
        var out = e[...]
        while out.first == 0x20 { out = out.dropFirst() }
        while out.last == 0x20 { out = out.dropLast() }
        return Array(out)
    }

    /// Hex digits an entry may hold. Mutant: uppercase accepted too.
    static func isEntryDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (Mutant.on(.listCSVUppercaseAccepted) && c >= 0x41 && c <= 0x46)
    }

    /// The advertised set in the order it is written. Mutant: siblings then self, as gathered
    /// (a set's iteration order), not sorted; duplicates still removed.
    static func advertisedOrder(_ ids: [DeviceID]) -> [DeviceID] {
        if Mutant.on(.listCSVUnsorted) {
            var seen: [DeviceID] = []
            for i in ids where !seen.contains(i) { seen.append(i) }
            return seen
        }
        return Array(Set(ids)).sorted()
    }

    /// Whether the advertisement is pushed. Mutants: every call; or the cached text compared
    /// without regard to case.
    static func push(csv: String, cached: String?) -> Bool {
        if Mutant.on(.listPushEveryCall) { return true }
        guard let cached else { return true }
        if Mutant.on(.listCSVCompareIgnoresCase) { return csv.lowercased() != cached.lowercased() }
        return !csv.utf8.elementsEqual(cached.utf8)
    }

    // MARK: the contact side (§10.5)

    /// Whether a known device that the advertisement drops is tombstoned. Mutant: the primary too.
    static func tombstones(_ device: DeviceID, primary: DeviceID) -> Bool {
        Mutant.on(.listPrimaryTombstoned) || device != primary
    }
}
